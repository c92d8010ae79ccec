/**
 * How much of the machine other processes used while the bench ran: on a shared 2-CPU machine, a figure
 * taken while something else compiled or ran tests is inflated, and the report should say so.
 *
 * From Linux's /proc: the machine's busy CPU time (/proc/stat) minus the CPU time of this process and all its
 * descendants (Chromium and its renderers and workers). A descendant that has exited is still counted, in
 * its parent's `cutime`/`cstime`, once the parent has reaped it. The load average is no use here: the bench's
 * own Chromium is most of it. Answers null where /proc is missing.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';

/** CPU use over a stretch of time, in seconds. */
export interface MachineLoad {
  wallSeconds: number;
  cpuCount: number;
  /** Busy CPU time of the whole machine (user, nice, system, irq, softirq). */
  busySeconds: number;
  /** CPU time of this process and its descendants. */
  benchSeconds: number;
  /** busySeconds − benchSeconds, never below 0. */
  otherSeconds: number;
  /** otherSeconds / (wallSeconds × cpuCount): the share of the machine others took. */
  otherShare: number;
  /** Time the hypervisor gave to other guests, as a share of the machine. */
  stealShare: number;
}

interface Sample {
  at: number;
  busy: number;
  steal: number;
  bench: number;
  cpuCount: number;
}

const TICKS_PER_SECOND = 100; // USER_HZ: 100 on every Linux the bench runs on

/** Starts watching; the returned function reads the load since then (call it before Chromium is closed). */
export function watchMachineLoad(): () => MachineLoad | null {
  const start = sample();
  return () => {
    const end = sample();
    if (!start || !end) return null;
    const wallSeconds = (end.at - start.at) / 1000;
    const busySeconds = (end.busy - start.busy) / TICKS_PER_SECOND;
    const benchSeconds = (end.bench - start.bench) / TICKS_PER_SECOND;
    const otherSeconds = Math.max(0, busySeconds - benchSeconds);
    const capacity = wallSeconds * end.cpuCount;
    return {
      wallSeconds,
      cpuCount: end.cpuCount,
      busySeconds,
      benchSeconds,
      otherSeconds,
      otherShare: capacity > 0 ? otherSeconds / capacity : 0,
      stealShare: capacity > 0 ? (end.steal - start.steal) / TICKS_PER_SECOND / capacity : 0,
    };
  };
}

function sample(): Sample | null {
  if (!existsSync('/proc/stat')) return null;
  try {
    const stat = readFileSync('/proc/stat', 'utf8');
    const cpu = stat.split('\n').find((l) => l.startsWith('cpu '));
    if (!cpu) return null;
    // user nice system idle iowait irq softirq steal
    const [user, nice, system, , , irq, softirq, steal] = cpu.trim().split(/\s+/).slice(1).map(Number);
    const cpuCount = stat.split('\n').filter((l) => /^cpu\d+ /.test(l)).length;
    return {
      at: Date.now(),
      busy: user! + nice! + system! + irq! + softirq!,
      steal: steal ?? 0,
      bench: treeTicks(process.pid),
      cpuCount,
    };
  } catch {
    return null;
  }
}

/** utime + stime + cutime + cstime of `root` and every live descendant, in ticks. */
function treeTicks(root: number): number {
  const parentOf = new Map<number, number>();
  const ticks = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let text: string;
    try {
      text = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // exited meanwhile
    }
    // The command name is in parentheses and may hold spaces: fields start after the last ')'.
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    // After the name: state(0) ppid(1) ... utime(11) stime(12) cutime(13) cstime(14).
    parentOf.set(Number(entry), Number(fields[1]));
    ticks.set(Number(entry), Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]));
  }
  const inTree = (pid: number): boolean => {
    for (let p: number | undefined = pid, hops = 0; p !== undefined && p > 1 && hops < 64; p = parentOf.get(p), hops++) {
      if (p === root) return true;
    }
    return false;
  };
  let total = 0;
  for (const [pid, t] of ticks) if (inTree(pid)) total += t;
  return total;
}
