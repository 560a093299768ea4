/**
 * Go `fmt` verbs kube-proxy uses when it writes iptables rules, reproduced exactly: the
 * probabilities (`%0.10f`, `computeProbability`) and the masquerade mark (`%#08x`,
 * `newProxier`), both in kubernetes `pkg/proxy/iptables/proxier.go`.
 */

/**
 * Go's `fmt.Sprintf("%0.<prec>f", x)` for a finite `x >= 0`. Go formats the exact binary
 * value and rounds a tie to even (strconv `bigFtoa`, `decimal.shouldRoundUp`); JavaScript's
 * `toFixed` rounds a tie up, so the two differ on exact ties such as 1/2048.
 */
export function goFixed(x: number, prec: number): string {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  const bits = view.getBigUint64(0);
  const biased = Number((bits >> 52n) & 0x7ffn);
  let mant = bits & ((1n << 52n) - 1n);
  if (biased !== 0) mant |= 1n << 52n;
  const exp = (biased === 0 ? 1 : biased) - 1075; // x = mant * 2^exp
  const scaled = mant * 10n ** BigInt(prec);
  let q: bigint;
  if (exp >= 0) q = scaled << BigInt(exp);
  else {
    const d = 1n << BigInt(-exp);
    q = scaled / d;
    const twice = 2n * (scaled % d);
    if (twice > d || (twice === d && q % 2n === 1n)) q += 1n;
  }
  const digits = q.toString().padStart(prec + 1, '0');
  return prec === 0 ? digits : `${digits.slice(0, -prec)}.${digits.slice(-prec)}`;
}

/**
 * Go's `fmt.Sprintf("%#08x", v)`: the `0` flag pads the digits (not the `0x` prefix) to the
 * width, so 1<<14 prints as `0x00004000` (fmt `fmtInteger`).
 */
export function goHex08(v: number): string {
  return `0x${v.toString(16).padStart(8, '0')}`;
}
