/** The ids of one stage's markers and patterns (unique per instance: several stages per page). */
export interface StageIds {
  arrowRequest: string;
  arrowReply: string;
  cross: string;
  hatch: string;
}

/** `url(#id)` for an SVG reference. */
export const url = (id: string) => `url(#${id})`;

/** A triangular arrowhead, 10 px, that points along the path (and back at a path's start). */
function Arrow({ id, className }: { id: string; className: string }) {
  return (
    <marker
      id={id}
      viewBox="0 0 10 10"
      refX="8"
      refY="5"
      markerWidth="10"
      markerHeight="10"
      markerUnits="userSpaceOnUse"
      orient="auto-start-reverse"
    >
      <path d="M 0 0 L 10 5 L 0 10 z" className={className} />
    </marker>
  );
}

/** Markers (real triangular arrowheads, one per colour; the cross that marks a failing check) and the failed-node hatch. */
export function Defs({ ids }: { ids: StageIds }) {
  return (
    <defs>
      <Arrow id={ids.arrowRequest} className="arrow-request" />
      <Arrow id={ids.arrowReply} className="arrow-reply" />
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
