// Exact ratios for converting points between price lists and trick scales: {n, d}, reduced, d > 0.

const gcd = (a, b) => (b === 0 ? Math.abs(a) : gcd(b, a % b));

/** @returns {{n: number, d: number}} */
export function ratio(n, d) {
  const g = gcd(n, d) || 1;
  return Object.freeze({ n: n / g, d: d / g });
}

export const ONE = ratio(1, 1);
export const sameRatio = (a, b) => a !== null && b !== null && a.n === b.n && a.d === b.d;
