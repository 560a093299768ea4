/**
 * `timeline FILE… --events EVENTS [options] [--json]`: the objects' Service over simulated
 * time — provisioning, the balancer's health checks and rotation, the events, the control
 * plane's reactions, and what happened to the workload's connections.
 *
 * EVENTS is a file (YAML or JSON, see README.md "The events format") or the compact form
 * inline, e.g. `fail:node-1@12s,restore:node-1@90s`.
 */
import { existsSync, readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import {
  describeWindow,
  formatSimTime,
  formatSvcTable,
  parseDuration,
  parseTimelineSpec,
  sceneFromObjects,
  simulate,
  svcRowAt,
  CONTROLLER_KINDS,
  MAX_CONNECTIONS,
  MAX_SIM_MS,
} from '../model/time';
import type {
  ConnectionFate,
  ConnectionRecord,
  ControllerKind,
  DeadNodeWindow,
  Epoch,
  ProbeRecord,
  RotationChange,
  SvcRow,
  Timeline,
  TimelineEntry,
  TimelineInput,
} from '../model/time';
import { InputError, UsageError, modeOf, plainInt, readObjects, seedOf } from './input';
import { shareTables } from './stats';

/** The `--json` output of `timeline` (documented in README.md, "Headless: stats and timeline"). */
export interface TimelineJson {
  service: string;
  address: string;
  settings: Timeline['settings'];
  entries: TimelineEntry[];
  probes: ProbeRecord[];
  rotation: RotationChange[];
  svc: SvcRow[];
  deadNodeWindows: DeadNodeWindow[];
  /** The epochs without their state, their paths flat (`paths`; no `byEntry`). */
  epochs: (Omit<Epoch, 'state' | 'byEntry' | 'paths'> & { paths: Epoch['paths'] })[];
  stats: Timeline['stats'];
  /** How many connections ended each way. */
  fates: Partial<Record<ConnectionFate, number>>;
  longLived: ConnectionRecord[];
  /** Every connection record; only with `--records`. */
  connections?: ConnectionRecord[];
}

/**
 * The text of `--events`: a file's contents, or the argument itself (inline events). An
 * argument that names no file but looks like a path (a `/` or a .yaml/.yml/.json ending, and
 * none of the characters inline events are made of) is a missing file, said so.
 * @throws {UsageError} for an empty argument; {@link InputError} for a file that is missing or unreadable.
 */
export function eventsText(arg: string): string {
  if (arg.trim() === '')
    throw new UsageError(
      '--events is empty: give a file, inline events such as fail:node-1@12s, or [] for none',
    );
  if (existsSync(arg)) {
    try {
      return readFileSync(arg, 'utf8');
    } catch (e) {
      throw new InputError(`--events ${arg}: cannot read it: ${(e as Error).message}`);
    }
  }
  // A path has no spaces, brackets, braces, colons, commas or @, and a / or a file ending.
  const pathLike =
    /^[^\s[\]{}:,@]+$/.test(arg) && (arg.includes('/') || /\.(ya?ml|json)$/i.test(arg));
  if (pathLike) throw new InputError(`--events ${arg}: no such file`);
  return arg;
}

function fatesOf(records: readonly ConnectionRecord[]): Partial<Record<ConnectionFate, number>> {
  const out: Partial<Record<ConnectionFate, number>> = {};
  for (const r of records) if (!r.longLived) out[r.fate] = (out[r.fate] ?? 0) + 1;
  return out;
}

/** The probes worth a line: the first, each change of result or rotation (all with `all`). */
function probeLines(tl: Timeline, all: boolean): { at: number; text: string }[] {
  const last = new Map<string, ProbeRecord>();
  const out: { at: number; text: string }[] = [];
  for (const p of tl.probes) {
    const prev = last.get(p.node);
    last.set(p.node, p);
    if (!all && prev && prev.ok === p.ok && prev.inRotation === p.inRotation) continue;
    out.push({
      at: p.doneAt,
      text: `probe ${p.node} ${p.target} (sent ${formatSimTime(p.at)}) → ${p.status ?? '-'}: ${p.summary}; ${p.consecutiveSuccesses} ok / ${p.consecutiveFailures} failed in a row, ${p.inRotation ? 'in' : 'out of'} rotation`,
    });
  }
  return out;
}

/**
 * Runs `timeline`; returns the text to print (stdout); the input's notes are pushed to `notes` (stderr).
 * @throws {UsageError} on a bad option; {@link InputError} (./input.ts) on input the validator refuses.
 */
export function cmdTimeline(args: string[], notes: string[]): string {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      events: { type: 'string' },
      seed: { type: 'string' },
      client: { type: 'string' },
      connections: { type: 'string' },
      period: { type: 'string' },
      hold: { type: 'string' },
      horizon: { type: 'string' },
      controller: { type: 'string' },
      'from-creation': { type: 'boolean' },
      mode: { type: 'string' },
      probes: { type: 'boolean' },
      records: { type: 'boolean' },
      json: { type: 'boolean' },
    },
  });
  if (values.events === undefined)
    throw new UsageError(
      '--events is required (a file, or e.g. fail:node-1@12s,restore:node-1@90s)',
    );
  const text = eventsText(values.events);
  let spec;
  try {
    spec = parseTimelineSpec(text);
  } catch (e) {
    throw new InputError(`--events: ${(e as Error).message}`);
  }
  const seed = seedOf(values.seed, spec.seed ?? 1);
  const mode = modeOf(values.mode);
  const dur = (v: string | undefined, name: string) => {
    if (v === undefined) return undefined;
    let ms: number;
    try {
      ms = parseDuration(v);
    } catch (e) {
      throw new UsageError(`--${name}: ${(e as Error).message}`);
    }
    if (ms > MAX_SIM_MS)
      throw new UsageError(
        `--${name} ${v}: must be at most 24h, the longest run the model simulates`,
      );
    return ms;
  };
  const controller = values.controller;
  if (controller !== undefined && !(CONTROLLER_KINDS as readonly string[]).includes(controller))
    throw new UsageError(
      `--controller ${controller}: must be ${CONTROLLER_KINDS.slice(0, -1).join(', ')} or ${CONTROLLER_KINDS.at(-1)}`,
    );
  const workload = { ...(spec.workload ?? {}) };
  if (values.connections !== undefined) {
    const n = plainInt(values.connections);
    if (n === undefined || n > MAX_CONNECTIONS)
      throw new UsageError(
        `--connections ${values.connections}: must be a whole number from 0 to ${MAX_CONNECTIONS}`,
      );
    workload.count = n;
  }
  const period = dur(values.period, 'period');
  if (period !== undefined) workload.periodMs = period;
  const hold = dur(values.hold, 'hold');
  if (hold !== undefined) workload.holdMs = hold;
  if (values.client !== undefined) workload.client = values.client;
  const horizon = dur(values.horizon, 'horizon') ?? spec.horizonMs;
  const objects = readObjects(positionals, notes);
  const scene = { ...sceneFromObjects(objects, seed), ...(mode ? { proxyMode: mode } : {}) };
  const input: TimelineInput = {
    objects,
    scene,
    events: spec.events,
    workload,
    seed,
    ...(spec.healthCheck ? { healthCheck: spec.healthCheck } : {}),
    ...(spec.controlPlane ? { controlPlane: spec.controlPlane } : {}),
    provisioning: {
      ...(spec.provisioning ?? {}),
      ...(controller ? { controller: controller as ControllerKind } : {}),
      ...(values['from-creation'] ? { fromCreation: true } : {}),
    },
    ...(horizon !== undefined ? { horizonMs: horizon } : {}),
  };
  let tl: Timeline;
  try {
    tl = simulate(input);
  } catch (e) {
    const msg = (e as Error).message;
    if (/^(event|healthCheck|workload|provisioning|controlPlane|seed|horizon)/.test(msg))
      throw new UsageError(msg);
    if (/no Client/.test(msg)) throw new UsageError(`--client: ${msg}`);
    throw e;
  }
  // kubectl get svc at each change of EXTERNAL-IP, then as of the end of the run (text and JSON alike).
  const end = svcRowAt(tl, tl.settings.horizonMs);
  const svc = tl.svc.at(-1)?.at === end.at ? tl.svc : [...tl.svc, end];
  if (values.json) {
    const out: TimelineJson = {
      service: tl.service,
      address: tl.address,
      settings: tl.settings,
      entries: tl.entries,
      probes: tl.probes,
      rotation: tl.rotation,
      svc,
      deadNodeWindows: tl.deadNodeWindows,
      // `paths` is a getter (not copied by the spread): listed flat, where `byEntry` was.
      epochs: tl.epochs.map(({ state: _s, byEntry: _b, ...e }, i) => ({
        ...e,
        paths: (tl.epochs[i] as Epoch).paths,
      })),
      stats: tl.stats,
      fates: fatesOf(tl.connections),
      longLived: tl.connections.filter((c) => c.longLived),
      ...(values.records ? { connections: tl.connections } : {}),
    };
    return JSON.stringify(out, null, 2);
  }
  const hc = tl.settings.healthCheck;
  const prov = tl.settings.provisioning;
  const lines: string[] = [];
  const checks =
    prov.controller === 'cloud'
      ? `health check every ${hc.intervalSeconds} s, timeout ${hc.timeoutSeconds} s, healthy ${hc.healthyThreshold}, unhealthy ${hc.unhealthyThreshold}`
      : prov.controller === 'metallb-l2'
        ? `no health checks (MetalLB layer 2: another speaker takes the address over when memberlist declares the announcing node dead, about ${formatSimTime(prov.metallb.failoverDetectMs)})`
        : 'no load balancer, so no health checks';
  lines.push(
    `# ${tl.service}: controller ${prov.controller}; ${checks}; horizon ${formatSimTime(tl.settings.horizonMs)}; seed ${tl.settings.seed}`,
  );
  const rows = [
    ...tl.entries.map((e) => ({
      at: e.at,
      seq: e.seq,
      text: `${e.actor}${e.reason ? ` [${e.reason}]` : ''}: ${e.message}`,
    })),
    ...probeLines(tl, values.probes === true).map((p, i) => ({
      at: p.at,
      seq: -1e9 + i,
      text: p.text,
    })),
  ].sort((a, b) => a.at - b.at || a.seq - b.seq);
  for (const r of rows) lines.push(`${formatSimTime(r.at).padStart(8)}  ${r.text}`);
  lines.push('', 'kubectl get svc:', formatSvcTable(svc));
  if (tl.deadNodeWindows.length > 0) {
    lines.push('', 'New connections sent to a dead node:');
    for (const w of tl.deadNodeWindows) lines.push(`  ${describeWindow(w, tl.settings)}`);
  }
  const w = tl.settings.workload;
  const fates = fatesOf(tl.connections);
  lines.push(
    '',
    `Connections: ${w.count} from ${w.client ?? tl.base.scene.client} between ${formatSimTime(w.startMs)} and ${formatSimTime(w.startMs + w.periodMs)}, each held ${formatSimTime(w.holdMs)}:`,
    `  ${
      Object.entries(fates)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ') || 'none'
    }`,
  );
  for (const c of tl.connections.filter((x) => x.longLived))
    lines.push(
      `  ${c.id} (${c.client}, opened ${formatSimTime(c.openedAt)} via ${c.lbTarget ?? '-'} to ${c.pod ?? '-'}): ${c.fate} — ${c.fateReason}`,
    );
  if (tl.stats.total > 0) lines.push('', shareTables(tl.stats));
  return lines.join('\n');
}
