import { Suspense, lazy, useRef } from 'react';
import type { KeyboardEvent, ReactNode } from 'react';
import { ErrorBoundary } from '../ErrorBoundary';
import {
  ConntrackPanel,
  LazyPanel,
  PacketInspector,
  RulePanel,
  useAfterFirstPaint,
} from './lazyPanels';
import { NodePicker } from './NodePicker';
import { WalkthroughPanel } from './WalkthroughPanel';
import './panels.css';

// The rules listing (its explanations, the diff library) is its own chunk, loaded after the
// first paint (or at once when its tab is opened first).
const RulesPanel = lazy(() => import('./RulesPanel').then((m) => ({ default: m.RulesPanel })));

/** The side column's tabs; each id is also its panel's `data-testid` (e2e). */
export const DETAIL_TABS = ['walkthrough', 'inspector', 'rule', 'conntrack', 'rules'] as const;

/** Which details tab is open. */
export type DetailTab = (typeof DETAIL_TABS)[number];

const LABEL: Record<DetailTab, string> = {
  walkthrough: 'Walkthrough',
  inspector: 'Packet',
  rule: 'Rule and decision',
  conntrack: 'conntrack',
  rules: 'kube-proxy rules',
};

const tabId = (t: DetailTab) => `details-tab-${t}`;
const panelId = (t: DetailTab) => `details-panel-${t}`;

/** The tab a key press moves to (WAI-ARIA tabs: arrows wrap, Home/End go to the ends). */
export function tabForKey(current: DetailTab, key: string): DetailTab | null {
  const i = DETAIL_TABS.indexOf(current);
  const n = DETAIL_TABS.length;
  if (key === 'ArrowRight' || key === 'ArrowDown') return DETAIL_TABS[(i + 1) % n] ?? null;
  if (key === 'ArrowLeft' || key === 'ArrowUp') return DETAIL_TABS[(i - 1 + n) % n] ?? null;
  if (key === 'Home') return DETAIL_TABS[0] ?? null;
  if (key === 'End') return DETAIL_TABS[n - 1] ?? null;
  return null;
}

function TabPanel({ tab, open, children }: { tab: DetailTab; open: boolean; children: ReactNode }) {
  return (
    <div
      role="tabpanel"
      id={panelId(tab)}
      aria-labelledby={tabId(tab)}
      // Focusable, so a panel without controls of its own (Packet) can be scrolled by keyboard.
      tabIndex={0}
      hidden={!open}
      className={`tab-panel tab-panel-${tab}`}
      data-testid={tab}
    >
      <ErrorBoundary name={`the ${LABEL[tab]} panel`}>{children}</ErrorBoundary>
    </div>
  );
}

/**
 * The walkthrough and the details of the current step — the packet, the rule and decision,
 * conntrack, the node's kube-proxy rules — one click away as tabs (the WAI-ARIA tabs pattern:
 * one Tab stop, arrows and Home/End move and open, automatic activation). Every panel stays
 * mounted while hidden, so a comparison or a scroll position survives switching.
 */
export function DetailsTabs({ tab, onTab }: { tab: DetailTab; onTab: (tab: DetailTab) => void }) {
  const tabs = useRef<Partial<Record<DetailTab, HTMLButtonElement | null>>>({});
  // The hidden tabs' panels mount after the first paint (their code is not in the first load).
  const late = useAfterFirstPaint();
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const to = tabForKey(tab, e.key);
    if (!to) return;
    // Handled here: the player's arrow and Home/End keys must not also step the trace.
    e.preventDefault();
    onTab(to);
    tabs.current[to]?.focus();
  };
  return (
    <section className="details" aria-label="Walkthrough and details">
      <div className="tablist" role="tablist" aria-label="Details" onKeyDown={onKeyDown}>
        {DETAIL_TABS.map((t) => (
          <button
            key={t}
            ref={(el) => {
              tabs.current[t] = el;
            }}
            type="button"
            role="tab"
            id={tabId(t)}
            aria-selected={t === tab}
            aria-controls={panelId(t)}
            tabIndex={t === tab ? 0 : -1}
            className="tab"
            data-tab={t}
            onClick={() => onTab(t)}
          >
            {LABEL[t]}
          </button>
        ))}
      </div>
      <TabPanel tab="walkthrough" open={tab === 'walkthrough'}>
        <WalkthroughPanel />
      </TabPanel>
      <TabPanel tab="inspector" open={tab === 'inspector'}>
        <LazyPanel mounted={late || tab === 'inspector'}>
          <PacketInspector />
        </LazyPanel>
      </TabPanel>
      <TabPanel tab="rule" open={tab === 'rule'}>
        <LazyPanel mounted={late || tab === 'rule'}>
          <RulePanel />
        </LazyPanel>
      </TabPanel>
      <TabPanel tab="conntrack" open={tab === 'conntrack'}>
        <LazyPanel mounted={late || tab === 'conntrack'}>
          <ConntrackPanel />
        </LazyPanel>
      </TabPanel>
      <TabPanel tab="rules" open={tab === 'rules'}>
        <div className="tab-toolbar">
          <NodePicker />
        </div>
        {/* Mounted after the first paint too: resolving its lazy chunk in the first render
            suspended that render and fetched the chunk while the page was being drawn. */}
        {(late || tab === 'rules') && (
          <Suspense fallback={<p className="empty">Loading the rules…</p>}>
            <RulesPanel />
          </Suspense>
        )}
      </TabPanel>
    </section>
  );
}
