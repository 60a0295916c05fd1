"""Drawing the score sheet from the rules core's ``Sheet``: the view model, the chart, the CSV
export and the per-process cache of drawn pages."""
