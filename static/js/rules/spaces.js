// Spaces as the Python core counts them: the characters str.strip(), str.split() and the \s of re take for
// spaces (declarations.js SPACES: U+001C–U+001F and U+0085 are, U+FEFF is not, unlike JavaScript's trim()
// and \s), so that both cores read typed numbers, card lists, rule values and names alike.

import { SPACES } from "./declarations.js";

/** A character class of the Python core's spaces, for regular expressions with the u flag. */
export const SPACE = `[${[...SPACES].map((char) => `\\u{${char.codePointAt(0).toString(16)}}`).join("")}]`;
const AROUND = new RegExp(`^${SPACE}+|${SPACE}+$`, "gu");
const BETWEEN = new RegExp(`${SPACE}+`, "u");

/** `text` without the spaces around it, as str.strip() leaves it. */
export const strip = (text) => text.replace(AROUND, "");

/** The words of `text`, as str.split() gives them. */
export const words = (text) => strip(text).split(BETWEEN).filter(Boolean);
