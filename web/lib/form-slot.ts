import type { ReactNode } from 'react';

/**
 * Fields that one feature lends another feature's form, composed in a route file (STYLE.md: a web feature never
 * imports another). The host form keeps the slot's value beside its own, draws `render` inside the form, checks the
 * value with `validate` on submit, and writes it into the multipart body with `write`. `initial(item)` is the value
 * for a new item (null) or for the item being edited; `summary(item)` is drawn beside an item of the host's list (e.g.
 * the acknowledgement's deadline and its report). First use: circulars that must be acknowledged (decision 074).
 *
 * NOTE: method syntax, so that a slot of a precise value type fits a host that keeps the value opaque (`unknown`).
 */
export interface FormSlot<V, Item> {
  initial(item: Item | null): V;
  render(props: FormSlotProps<V, Item>): ReactNode;
  /** Errors by the slot's own field names (the server's `field`), as English sentences; none when empty. */
  validate(value: V, item: Item | null): Record<string, string>;
  write(value: V, data: FormData, item: Item | null): void;
  /** The server's `field` names the slot shows, so the host puts a refusal on the slot's input. */
  fields: readonly string[];
  summary?(item: Item): ReactNode;
}

export interface FormSlotProps<V, Item> {
  value: V;
  onChange(value: V): void;
  /** The translated error of one of the slot's fields. */
  error(field: string): ReactNode;
  /** The item being edited, or null for a new one. */
  item: Item | null;
}

/** The host form keeps the slot's value under this key. */
export const SLOT_KEY = 'slot';

/** The slot's errors under the host form's `slot` value, where its inputs look for them. */
export const slotErrors = (errors: Record<string, string> | undefined): Record<string, string> =>
  Object.fromEntries(Object.entries(errors ?? {}).map(([name, message]) => [`${SLOT_KEY}.${name}`, message]));

/** A refusal's `field` that names one of the slot's inputs, moved under the `slot` value (applyServerError's fold). */
export const slotFold =
  <V, Item>(slot: FormSlot<V, Item> | undefined) =>
  (field: string): string =>
    slot?.fields.includes(field) ? `${SLOT_KEY}.${field}` : field;
