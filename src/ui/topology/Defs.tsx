/** The ids of one stage's markers and patterns (unique per instance: several stages per page). */
export interface StageIds {
  arrowRequest: string;
  arrowReply: string;
  cross: string;
  hatch: string;
}

/** `url(#id)` for an SVG reference. */
export const url = (id: string) => `url(#${id})`;

/** Markers (real triangular arrowheads, one per colour; the cross that marks a failing check) and the failed-node hatch. */
export function Defs({ ids }: { ids: StageIds }) {
  return (
    <defs>
      <marker
        id={ids.arrowRequest}
        viewBox="0 0 10 10"
        refX="8"
        refY="5"
        markerWidth="10"
        markerHeight="10"
        markerUnits="userSpaceOnUse"
        orient="auto-start-reverse"
      >
        <path d="M 0 0 L 10 5 L 0 10 z" className="arrow-request" />
      </marker>
      <marker
        id={ids.arrowReply}
        viewBox="0 0 10 10"
        refX="8"
        refY="5"
        markerWidth="10"
        markerHeight="10"
        markerUnits="userSpaceOnUse"
        orient="auto-start-reverse"
      >
        <path d="M 0 0 L 10 5 L 0 10 z" className="arrow-reply" />
      </marker>
      <marker
        id={ids.cross}
        viewBox="0 0 10 10"
        refX="5"
        refY="5"
        markerWidth="10"
        markerHeight="10"
        markerUnits="userSpaceOnUse"
      >
        <path d="M 1 1 L 9 9 M 9 1 L 1 9" className="cross-mark" />
      </marker>
      <pattern
        id={ids.hatch}
        width="8"
        height="8"
        patternUnits="userSpaceOnUse"
        patternTransform="rotate(45)"
      >
        <line x1="0" y1="0" x2="0" y2="8" className="hatch-line" />
      </pattern>
    </defs>
  );
}
