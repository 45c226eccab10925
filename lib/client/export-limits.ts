/** The most rows one CSV export holds (newest first); the page says so when a filter has more. */
export const EXPORT_MAX_ROWS = 10_000;
