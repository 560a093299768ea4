/** `namespace/name` of a namespaced object as the timeline keys it (namespace default `default`). */
export function objectKey(ns: string | undefined, name: string | undefined): string {
  return `${ns ?? 'default'}/${name ?? ''}`;
}
