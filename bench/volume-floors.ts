// The volume bench's floors: reads no history touches, timed in the same rounds as the others (bench/volume.ts);
// the report judges growth net of theirs (bench/volume-report.ts).
export const FLOOR = {
  api: 'floor: get_account_settings',
  console: 'floor: GET /api/account-settings',
} as const;
