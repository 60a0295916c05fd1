// Filling in the core's templates as messages.py does: `{name}` as is, `{name:,}` grouped by thousands, `{{` a
// brace.

/** Whole numbers as the Python core writes them with `{:,}`: 1,000. */
export function grouped(n) {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

/** `template` with its fields filled in from `fields`. */
export function fill(template, fields = {}) {
  return template.replace(/\{\{|\}\}|\{(\w+)(:,)?\}/g, (found, name, group) => {
    if (name === undefined) return found[0];
    return group ? grouped(fields[name]) : String(fields[name]);
  });
}
