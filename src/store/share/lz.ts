/**
 * A bounded reader for lz-string's `compressToEncodedURIComponent` output.
 *
 * lz-string's own `decompressFromEncodedURIComponent` cannot be told to stop: a crafted link
 * of a few tens of KB can expand quadratically (each code may add one more character to the
 * longest dictionary entry) into hundreds of MB and freeze the tab. This is the same algorithm
 * (lz-string 1.5.0, `_decompress` with 6-bit characters) with a limit on the output, checked as
 * it grows, and no garbage on malformed input: anything lz-string would not have written is
 * reported as damaged. `link.test.ts` checks it against lz-string on random and real input.
 */

/** lz-string's URI-safe alphabet: a character's index is its 6-bit value. */
export const URI_SAFE_ALPHABET =
  'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+-$';

const VALUE_OF = new Map<string, number>([...URI_SAFE_ALPHABET].map((c, i) => [c, i]));

export type Decompressed =
  { ok: true; text: string } | { ok: false; problem: 'alphabet' | 'damaged' | 'too-large' };

/**
 * Decompresses `input` (URI-safe lz-string), giving up as soon as the output would be longer
 * than `maxChars` characters.
 */
export function decompressBounded(input: string, maxChars: number): Decompressed {
  const length = input.length;
  if (length === 0) return { ok: false, problem: 'damaged' };
  const values = new Uint8Array(length);
  for (let i = 0; i < length; i++) {
    // lz-string reads a space as '+' (a '+' that went through form decoding).
    const ch = input[i] === ' ' ? '+' : (input[i] as string);
    const v = VALUE_OF.get(ch);
    if (v === undefined) return { ok: false, problem: 'alphabet' };
    values[i] = v;
  }

  // The bit reader: 6 bits per character, most significant first; past the end reads zeros.
  let val = values[0] ?? 0;
  let position = 32;
  let index = 1;
  const readBits = (n: number): number => {
    let bits = 0;
    for (let i = 0, power = 1; i < n; i++, power *= 2) {
      const bit = val & position;
      position >>= 1;
      if (position === 0) {
        position = 32;
        val = values[index++] ?? 0;
      }
      if (bit) bits += power;
    }
    return bits;
  };

  const dictionary: string[] = [];
  let dictSize = 4;
  let enlargeIn = 4;
  let numBits = 3;

  let w: string;
  switch (readBits(2)) {
    case 0:
      w = String.fromCharCode(readBits(8));
      break;
    case 1:
      w = String.fromCharCode(readBits(16));
      break;
    default:
      // 2 is the end marker (nothing was compressed); 3 is never written.
      return { ok: false, problem: 'damaged' };
  }
  dictionary[3] = w;
  const out: string[] = [w];
  let total = w.length;

  for (;;) {
    if (index > length) return { ok: false, problem: 'damaged' };
    let code = readBits(numBits);
    if (code === 0 || code === 1) {
      dictionary[dictSize++] = String.fromCharCode(readBits(code === 0 ? 8 : 16));
      code = dictSize - 1;
      enlargeIn--;
    } else if (code === 2) {
      return { ok: true, text: out.join('') };
    }
    if (enlargeIn === 0) {
      enlargeIn = 2 ** numBits;
      numBits++;
    }

    let entry: string;
    const known = code >= 3 ? dictionary[code] : undefined;
    if (known !== undefined) entry = known;
    else if (code === dictSize) entry = w + w.charAt(0);
    else return { ok: false, problem: 'damaged' };

    total += entry.length;
    if (total > maxChars) return { ok: false, problem: 'too-large' };
    out.push(entry);

    dictionary[dictSize++] = w + entry.charAt(0);
    enlargeIn--;
    w = entry;
    if (enlargeIn === 0) {
      enlargeIn = 2 ** numBits;
      numBits++;
    }
  }
}
