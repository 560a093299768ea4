import type { Candidate } from '../../model/trace/types';
import type { Cluster } from '../../model/scenario/cluster';
import type { FoldLayout } from './layout';
import type { FoldCounts } from './foldCounts';
import { pressKeys } from './NodeBox';
import { Rect, SlotText } from './SlotText';

interface Props {
  fold: FoldLayout;
  cluster: Cluster;
  counts: FoldCounts;
  health: Record<string, Candidate>;
  rotation: boolean;
  hasLb: boolean;
  failed: readonly string[];
  expanded: boolean;
  active: boolean;
  hatch: string;
  onExpand: (on: boolean) => void;
  onToggleNode: (name: string) => void;
  onFocusTile: (y: number) => void;
}

/**
 * The nodes not drawn in full: one summary group ("+97 nodes · 95 in rotation · 2 failing")
 * that expands (a button) into compact tiles below the cluster — name, status, Pod count — each
 * tile operable like a node (click, Enter or Space fails or restores it).
 */
export function FoldedNodes(p: Props) {
  const { fold, counts } = p;
  const inWord = p.rotation ? 'in rotation' : 'passing';
  const outWord = p.rotation ? 'out of rotation' : 'failing';
  const outShort = p.rotation ? 'out' : 'failing';
  const summary = `${counts.count} more nodes${p.hasLb ? `: ${counts.eligible} ${inWord}, ${counts.failing} ${outWord}` : ''}${counts.down ? `, ${counts.down} down` : ''}`;
  const toggle = () => p.onExpand(!p.expanded);
  const [count, rot, fail, btn] = fold.lines;
  const podCount = new Map<string, number>();
  if (fold.tiles)
    for (const pod of p.cluster.pods)
      if (pod.nodeName) podCount.set(pod.nodeName, (podCount.get(pod.nodeName) ?? 0) + 1);
  return (
    <g className="fold">
      <g
        className={`fold-group${p.active ? ' active' : ''}`}
        role="button"
        tabIndex={0}
        aria-expanded={p.expanded}
        aria-label={`${summary}. ${p.expanded ? 'Hide tiles' : 'Show all'}`}
        onClick={toggle}
        onKeyDown={pressKeys(toggle)}
        data-testid="fold"
        data-folded={counts.count}
        data-place="fold"
      >
        <Rect
          className="node-focus-ring"
          box={{ x: fold.box.x - 5, y: fold.box.y - 5, w: fold.box.w + 10, h: fold.box.h + 10 }}
          rx={11}
        />
        <Rect
          className="fold-stack"
          box={{ ...fold.box, x: fold.box.x + 4, y: fold.box.y - 4 }}
          rx={8}
        />
        <Rect className="box fold-frame" box={fold.box} rx={8} />
        <Rect className="fold-button" box={fold.button} rx={6} />
      </g>
      {/* The drawn words sit beside the button, not in it: its name says all of them (WCAG 2.5.3
          compares a control's name with the text inside it), they are hidden from assistive tech
          so nothing is read twice, and clicks fall through them to the button's shapes. */}
      <g className="fold-text" aria-hidden="true">
        {count && (
          <SlotText
            className="title"
            at={count}
            text={`+${counts.count} node${counts.count === 1 ? '' : 's'}`}
          />
        )}
        {rot && p.hasLb && <SlotText at={rot} text={`${counts.eligible} ${inWord}`} />}
        {fail && (
          <SlotText
            className={counts.failing || counts.down ? 'unhealthy' : 'muted'}
            at={fail}
            text={
              p.hasLb
                ? `${counts.failing} ${outShort}${counts.down ? ` · ${counts.down} down` : ''}`
                : `${counts.down} down`
            }
          />
        )}
        {btn && <SlotText at={btn} text={p.expanded ? '▴ Hide tiles' : '▸ Show all'} />}
      </g>
      {fold.tiles && (
        <g className="tiles" data-testid="tiles">
          <Rect className="tiles-frame" box={fold.tiles.box} rx={10} />
          <SlotText className="title" at={fold.tiles.heading} text={summary} />
          <g
            className="fold-button-g"
            role="button"
            tabIndex={0}
            aria-label="Hide the node tiles"
            onClick={() => p.onExpand(false)}
            onKeyDown={pressKeys(() => p.onExpand(false))}
            onFocus={() => p.onFocusTile(fold.tiles?.box.y ?? 0)}
            data-testid="tiles-hide"
          >
            <Rect className="fold-button" box={fold.tiles.hide.box} rx={6} />
            <SlotText at={fold.tiles.hide.text} text="▴ Hide" />
          </g>
          {fold.tiles.tiles.map((t) => {
            const node = p.cluster.nodes.find((n) => n.name === t.name);
            const failed = p.failed.includes(t.name);
            const c = p.health[t.name];
            const out = c !== undefined && !c.eligible;
            const status = failed ? '✗ down' : node?.ready ? '✓ Ready' : '✗ NotReady';
            const pods = podCount.get(t.name) ?? 0;
            const act = () => p.onToggleNode(t.name);
            return (
              <g
                key={t.name}
                className={`tile node${failed ? ' failed' : ''}${out ? ' out' : ''}`}
                role="button"
                tabIndex={0}
                aria-pressed={failed}
                aria-label={`${t.name}, ${status.slice(2)}${out ? ', out of rotation' : ''}, ${pods} Pods: ${failed ? 'restore' : 'fail'} this node`}
                onClick={act}
                onKeyDown={pressKeys(act)}
                onFocus={() => p.onFocusTile(t.box.y)}
                data-place={`node:${t.name}`}
                data-node-failed={failed}
              >
                <title>{`${t.name}${c ? ` · ${c.status}` : ''}`}</title>
                <Rect
                  className="node-focus-ring"
                  box={{ x: t.box.x - 4, y: t.box.y - 4, w: t.box.w + 8, h: t.box.h + 8 }}
                  rx={9}
                />
                {failed && <Rect box={t.box} rx={6} fill={`url(#${p.hatch})`} />}
                <Rect className="box node-frame" box={t.box} rx={6} />
                <SlotText className="title" at={t.title} text={t.name} />
                <SlotText
                  className={`status ${failed || !node?.ready ? 'bad' : 'ok'}`}
                  at={t.status}
                  text={out && !failed ? '○ out' : status}
                />
                <SlotText
                  className="muted"
                  at={t.pods}
                  text={`${pods} Pod${pods === 1 ? '' : 's'}`}
                />
              </g>
            );
          })}
        </g>
      )}
    </g>
  );
}
