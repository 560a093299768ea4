/** mermaid's self-contained ESM build (see mermaidLoader.ts): the same API as 'mermaid'. */
declare module 'mermaid/dist/mermaid.esm.min.mjs' {
  export { default } from 'mermaid';
}
