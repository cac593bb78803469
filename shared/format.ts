/** Indian-style dates (21 Nov 2026) and 12-hour timestamps (spec §9). Plain Intl, so server and web agree. */

const dateFmt = new Intl.DateTimeFormat('en-IN', {
  day: '2-digit',
  month: 'short',
  year: 'numeric',
  timeZone: 'Asia/Kolkata',
});
const timeFmt = new Intl.DateTimeFormat('en-IN', {
  day: '2-digit',
  month: 'short',
  year: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
  hour12: true,
  timeZone: 'Asia/Kolkata',
});

function toDate(value: string | number | Date | null | undefined): Date | null {
  if (value === null || value === undefined || value === '') return null;
  const d =
    value instanceof Date
      ? value
      : new Date(typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00+05:30` : value);
  return Number.isNaN(d.getTime()) ? null : d;
}

/** "21 Nov 2026", or `fallback` when there is no date. */
export function formatDate(value: string | number | Date | null | undefined, fallback = 'N/A'): string {
  const d = toDate(value);
  return d ? dateFmt.format(d).replace(/-/g, ' ') : fallback;
}

/** "21 Nov 2026, 3:05 pm", or `fallback` when there is no time. */
export function formatDateTime(value: string | number | Date | null | undefined, fallback = 'N/A'): string {
  const d = toDate(value);
  return d ? timeFmt.format(d).replace(/-/g, ' ') : fallback;
}

/** A date cut to YYYY-MM-DD for date inputs (spec §4 Letters Manager). */
export function toDateInput(value: string | null | undefined): string {
  return value ? value.slice(0, 10) : '';
}
