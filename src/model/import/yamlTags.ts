/**
 * How YAML tags read, as kubectl reads them. kubectl turns YAML into JSON with
 * sigs.k8s.io/yaml (go-yaml v2 underneath), and JSON has no bytes: go-yaml resolves
 * `!!binary` to the decoded bytes as a string, and refuses bad base64 with
 * "!!binary value contains invalid base64 data" (go-yaml decode.go). The `yaml` package would
 * give a Buffer (Node) or Uint8Array (browser) and, in a browser, throw `atob`'s own error on
 * bad base64; this tag gives what kubectl sends instead.
 */
import type { ScalarTag } from 'yaml';

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** Decodes standard base64 (whitespace ignored) to text, or undefined when it is not base64. */
function decodeBase64(src: string): string | undefined {
  const clean = src.replace(/\s+/g, '');
  if (!BASE64.test(clean) || clean.length % 4 === 1) return undefined;
  let binary: string;
  try {
    binary = atob(clean);
  } catch {
    return undefined;
  }
  const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  // Go's string(bytes) keeps invalid UTF-8; encoding/json then writes U+FFFD for it, as here.
  return new TextDecoder('utf-8', { fatal: false }).decode(bytes);
}

/** `!!binary`: the decoded bytes as a string, as kubectl sends them. */
export const binaryAsString: ScalarTag = {
  tag: 'tag:yaml.org,2002:binary',
  default: false,
  identify: () => false,
  resolve(src, onError) {
    const text = decodeBase64(src);
    if (text === undefined) {
      onError('!!binary value contains invalid base64 data');
      return src;
    }
    return text;
  },
};

/** The `customTags` option for every parse of user input. */
export const KUBECTL_TAGS = [binaryAsString];
