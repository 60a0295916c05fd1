// Small helpers for the score keeper's forms. Every page works without this file.
"use strict";
