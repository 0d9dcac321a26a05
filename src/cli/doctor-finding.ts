/** What `buckler doctor` reports: one finding, and one harness's section (doctor.ts, doctor-system.ts). */
export interface Finding {
  level: 'ok' | 'info' | 'problem';
  text: string;
}

export interface HarnessReport {
  harness: string;
  title: string;
  found: boolean;
  version: string | null;
  findings: Finding[];
}
