import type { Tone } from '@/console/browser/labels';

/** Drawn icons (not font characters, which a browser's fonts may lack), one per tone of a status. */
const PATHS: Record<Tone | 'clock' | 'menu' | 'close', string> = {
  done: 'M3.5 8.5l3 3 6-7',
  bad: 'M4 4l8 8M12 4l-8 8',
  waiting: 'M8 2.5a5.5 5.5 0 1 0 0 11a5.5 5.5 0 1 0 0-11M8 5v3.2l2.2 1.6',
  paused: 'M6 3.5v9M10 3.5v9',
  back: 'M6 3.5L3 6.5l3 3M3 6.5h6.5a3.5 3.5 0 0 1 0 7H7',
  neutral: 'M8 6.5a1.5 1.5 0 1 0 0 3a1.5 1.5 0 1 0 0-3',
  clock: 'M8 2.5a5.5 5.5 0 1 0 0 11a5.5 5.5 0 1 0 0-11M8 5v3.2l2.2 1.6',
  menu: 'M2.5 4h11M2.5 8h11M2.5 12h11',
  close: 'M4 4l8 8M12 4l-8 8',
};

export type IconName = keyof typeof PATHS;

/** A 1em line icon in the text's colour, hidden from screen readers (the words beside it say it). */
export function Icon({ name, className }: { name: IconName; className?: string }) {
  return (
    <svg
      className={`icon${className ? ` ${className}` : ''}`}
      viewBox="0 0 16 16"
      width="1em"
      height="1em"
      aria-hidden="true"
      focusable="false"
    >
      <path d={PATHS[name]} fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}

/**
 * A status as a badge: its words and a drawn icon, coloured by tone (never colour alone). `code` is the API's
 * value, kept in data-status for scripts and tests, never shown.
 */
export function StatusBadge({
  label,
  tone,
  code,
  testId,
  title,
}: {
  label: string;
  tone: Tone;
  code?: string;
  testId?: string;
  title?: string;
}) {
  return (
    <span className={`status status-${tone}`} data-status={code} data-testid={testId} title={title}>
      <Icon name={tone} />
      {label}
    </span>
  );
}
