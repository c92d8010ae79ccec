/** What an integrator check found (issue #17 console tools): the finding and what to do about it. */
export interface Finding {
  level: 'error' | 'warn' | 'info' | 'ok';
  message: string;
  /** What to do; absent for an informational or ok finding. */
  advice?: string;
}

/** What a check prints and answers. */
export interface ToolReport {
  title: string;
  findings: Finding[];
  /** No error and no warning. */
  ok: boolean;
}

/** The report of a check's findings. */
export function reportOf(title: string, findings: Finding[]): ToolReport {
  return { title, findings, ok: !findings.some((f) => f.level === 'error' || f.level === 'warn') };
}
