/**
 * Durations: kubectl's AGE column and a Go-style duration parser for the events format.
 */
import type { SimMs } from './types';

/**
 * kubectl's AGE: `HumanDuration` from `k8s.io/apimachinery/pkg/util/duration` (what
 * `kubectl get` prints through `translateTimestampSince`): `45s` and `119s` below two
 * minutes, `2m10s` below ten minutes, `25m` below three hours, `3h20m` below eight hours,
 * then `15h`, `3d4h`, `20d`, `2y100d`, `9y`.
 * @param ms simulated milliseconds; truncated to whole seconds as Go's `int(d.Seconds())`.
 */
export function humanDuration(ms: SimMs): string {
  const seconds = Math.trunc(ms / 1000);
  if (seconds < -1) return '<invalid>';
  if (seconds < 0) return '0s';
  if (seconds < 60 * 2) return `${seconds}s`;
  const minutes = Math.trunc(seconds / 60);
  if (minutes < 10) {
    const s = seconds % 60;
    return s === 0 ? `${minutes}m` : `${minutes}m${s}s`;
  }
  if (minutes < 60 * 3) return `${minutes}m`;
  const hours = Math.trunc(minutes / 60);
  if (hours < 8) {
    const m = minutes % 60;
    return m === 0 ? `${hours}h` : `${hours}h${m}m`;
  }
  if (hours < 48) return `${hours}h`;
  if (hours < 24 * 8) {
    const h = hours % 24;
    return h === 0 ? `${Math.trunc(hours / 24)}d` : `${Math.trunc(hours / 24)}d${h}h`;
  }
  if (hours < 24 * 365 * 2) return `${Math.trunc(hours / 24)}d`;
  if (hours < 24 * 365 * 8) {
    const dy = Math.trunc(hours / 24) % 365;
    const y = Math.trunc(hours / 24 / 365);
    return dy === 0 ? `${y}y` : `${y}y${dy}d`;
  }
  return `${Math.trunc(hours / 24 / 365)}y`;
}

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/**
 * Parses a duration such as `10s`, `1m30s`, `250ms`, `1.5s` or `2h` (Go's
 * `time.ParseDuration` units ms, s, m, h) into milliseconds.
 * @throws {Error} when `text` is not such a duration.
 */
export function parseDuration(text: string): SimMs {
  const t = text.trim();
  const re = /(\d+(?:\.\d+)?)(ms|s|m|h)/gy;
  let total = 0;
  let matched = 0;
  let m: RegExpExecArray | null;
  while ((m = re.exec(t)) !== null) {
    total += Number(m[1]) * (UNIT_MS[m[2] ?? ''] ?? 0);
    matched = re.lastIndex;
  }
  if (t === '' || matched !== t.length)
    throw new Error(`"${text}" is not a duration (write e.g. 10s, 1m30s or 250ms)`);
  return Math.round(total);
}

/** A time for humans: `12s`, `1m30.5s`, `250ms` (the inverse of {@link parseDuration}). */
export function formatSimTime(ms: SimMs): string {
  if (ms === 0) return '0s';
  const sign = ms < 0 ? '-' : '';
  let rest = Math.abs(ms);
  if (rest < 1000) return `${sign}${rest}ms`;
  const h = Math.floor(rest / 3_600_000);
  rest -= h * 3_600_000;
  const m = Math.floor(rest / 60_000);
  rest -= m * 60_000;
  const s = rest / 1000;
  return `${sign}${h ? `${h}h` : ''}${m ? `${m}m` : ''}${s ? `${Number(s.toFixed(3))}s` : ''}`;
}
