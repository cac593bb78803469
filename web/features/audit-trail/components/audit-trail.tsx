import { Badge, Button, Group, Loader, Paper, Select, SimpleGrid, Stack, Table, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import type { TFunction } from 'i18next';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { AUDIT_ACTIONS, AUDIT_CLASSIFICATIONS, AUDIT_OUTCOMES } from '#shared/audit.ts';
import type { AuditEventJson } from '#shared/schemas/audit.ts';

import { DateField } from '#web/components/date-field.tsx';
import { EmptyState } from '#web/components/empty-state.tsx';
import { Pager } from '#web/components/pager.tsx';
import { PanelError } from '#web/components/panel-error.tsx';
import { ScrollTable } from '#web/components/scroll-table.tsx';
import { ApiError } from '#web/lib/api-client.ts';
import { serverMessage } from '#web/lib/form-errors.ts';
import { useFormatDate } from '#web/lib/use-format-date.ts';

import { auditCsvHref, type AuditFilter, emptyAuditFilter, useAuditEvents } from '../api.ts';

export const AUDIT_PAGE_SIZE = 20;

type Translate = TFunction<['audit', 'common']>;
type Details = Record<string, unknown> | null;

/** A word of the audit namespace for a code, or the code itself when the screen has none (a newer server's). */
const wordFor = (t: Translate, group: string, code: string) => t(`${group}.${code}`, { defaultValue: code });

/** One side of a change, worded: a role, a status, a clearance, a group's name, or "none". */
function changeValue(t: Translate, action: string, value: unknown): string {
  if (value === null || value === undefined) return t('details.none');
  if (action === 'role_changed') return t(`common:roles.${String(value)}`, { defaultValue: String(value) });
  if (action === 'status_changed') return wordFor(t, 'statuses', String(value));
  if (action === 'clearance_changed') return value ? t('details.cleared') : t('details.notCleared');
  if (typeof value === 'object') return String((value as { name?: unknown }).name ?? t('details.none'));
  return String(value);
}

/** What an event's details say that a reader needs: the old and new value of a change, the login tried, a reason. */
export function detailLines(t: Translate, event: Pick<AuditEventJson, 'action' | 'details'>): string[] {
  const d: Details = event.details;
  if (!d) return [];
  const lines: string[] = [];
  if (event.action.endsWith('_changed') && ('from' in d || 'to' in d)) {
    lines.push(
      t('details.change', { from: changeValue(t, event.action, d.from), to: changeValue(t, event.action, d.to) }),
    );
  }
  if (typeof d.login === 'string') lines.push(t('details.login', { login: d.login }));
  if (typeof d.reason === 'string' && d.reason) lines.push(t('details.reason', { reason: d.reason }));
  return lines;
}

/** The classification as the letters mark it: Secret and Confidential filled, the others outlined. */
function ClassificationBadge({ classification }: { classification: string | null }) {
  const { t } = useTranslation('audit');
  if (!classification) return null;
  const filled: Record<string, string> = { Secret: 'red.9', Confidential: '#9a3412', Restricted: 'indigo.9' };
  const color = filled[classification];
  return (
    <Badge
      color={color ?? 'gray.8'}
      variant={color ? 'filled' : 'outline'}
      radius="sm"
      style={{ flexShrink: 0, overflow: 'visible' }}
    >
      {wordFor(t as Translate, 'classifications', classification)}
    </Badge>
  );
}

/** Who did it: the person and their role then, or where a change came from when nobody signed in made it. */
function PersonCell({ event }: { event: AuditEventJson }) {
  const { t } = useTranslation(['audit', 'common']);
  if (event.actor) {
    return (
      <>
        <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
          {event.actor.name}
        </Text>
        <Text size="xs" c="gray.8">
          {t(`common:roles.${event.actor.role}`, { defaultValue: event.actor.role })}
        </Text>
      </>
    );
  }
  return (
    <Text size="sm" c="gray.8" fs="italic">
      {noPersonText(t as Translate, event)}
    </Text>
  );
}

/** An event nobody signed in made: where the change came from (the directory, single sign-on), or "Not signed in". */
function noPersonText(t: Translate, event: AuditEventJson): string {
  const via = typeof event.details?.via === 'string' ? event.details.via : null;
  return via ? wordFor(t, 'via', via) : t('noPerson');
}

/** A "Label: value" line of an event's card on a narrow screen. */
function CardLine({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
      <Text span size="sm" c="gray.8">
        {label}:{' '}
      </Text>
      {children}
    </Text>
  );
}

/**
 * What names an event's object beside its type: its label (a letter's subject, a person's name) or id. The audit trail
 * itself is named by its type alone, in the reader's language (its stored label is the server's English).
 */
const objectName = (object: NonNullable<AuditEventJson['object']>): string | null =>
  object.type === 'audit_trail' ? null : (object.label ?? object.id);

function ObjectCell({ event }: { event: AuditEventJson }) {
  const { t } = useTranslation('audit');
  if (!event.object) return null;
  return (
    <>
      <Text size="xs" c="gray.8">
        {wordFor(t as Translate, 'objectTypes', event.object.type)}
      </Text>
      <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
        {objectName(event.object)}
      </Text>
    </>
  );
}

function ActionCell({ event }: { event: AuditEventJson }) {
  const { t } = useTranslation(['audit', 'common']);
  return (
    <>
      <Text size="sm" fw={600}>
        {wordFor(t as Translate, 'actions', event.action)}
      </Text>
      {detailLines(t as Translate, event).map((line) => (
        <Text key={line} size="xs" c="gray.8" style={{ overflowWrap: 'anywhere' }}>
          {line}
        </Text>
      ))}
    </>
  );
}

function OutcomeText({ outcome }: { outcome: AuditEventJson['outcome'] }) {
  const { t } = useTranslation('audit');
  return (
    <Text size="sm" c={outcome === 'success' ? 'gray.9' : 'red.9'} fw={outcome === 'success' ? 400 : 700}>
      {t(`outcomes.${outcome}`)}
    </Text>
  );
}

/** A Select of codes worded in the reader's language, with "Any …" for none. */
function CodeSelect({
  label,
  any,
  codes,
  group,
  value,
  onChange,
}: {
  label: string;
  any: string;
  codes: readonly string[];
  group: string;
  value: string;
  onChange: (value: string) => void;
}) {
  const { t } = useTranslation('audit');
  return (
    <Select
      label={label}
      data={[{ value: '', label: any }, ...codes.map((c) => ({ value: c, label: wordFor(t as Translate, group, c) }))]}
      value={value}
      onChange={(v) => onChange(v ?? '')}
      allowDeselect={false}
      // In the page's main landmark, not a portal at the end of the body (axe region), and the whole list shown: a
      // scrolling box the keyboard cannot reach fails WCAG 2.1.1 (axe scrollable-region-focusable), and a focusable
      // one inside the listbox breaks its options' structure (aria-required-children). The page scrolls instead, and
      // the list stays open while its input scrolls out of sight (hideDetached), so the last actions can be reached.
      comboboxProps={{ withinPortal: false, hideDetached: false }}
      withScrollArea={false}
    />
  );
}

/**
 * Admin → Audit Trail (decision 069): the events newest first, filtered by person, object, action,
 * classification, outcome and days, paged by the server, with times in IST (Indian date, 12-hour clock), and the CSV
 * of the same filters. `actions` is what the reader's role adds above the table (an admin's checkpoint button).
 */
export function AuditTrail({ actions }: { actions?: ReactNode }) {
  const { formatDateTime } = useFormatDate();
  const { t } = useTranslation(['audit', 'common']);
  const [filter, setFilter] = useState<AuditFilter>(emptyAuditFilter);
  const [page, setPage] = useState(1);
  // Typed filters wait for a pause in typing; chosen ones apply at once.
  const [person] = useDebouncedValue(filter.person.trim(), 300);
  const [object] = useDebouncedValue(filter.object.trim(), 300);
  const applied = { ...filter, person, object };
  const events = useAuditEvents(applied, { limit: AUDIT_PAGE_SIZE, offset: (page - 1) * AUDIT_PAGE_SIZE });
  const pages = Math.max(1, Math.ceil((events.data?.total ?? 0) / AUDIT_PAGE_SIZE));
  const filtered = Object.values(filter).some((v) => v !== '');
  const set = (key: keyof AuditFilter) => (value: string) => {
    setFilter((f) => ({ ...f, [key]: value }));
    setPage(1);
  };
  const error =
    events.error instanceof ApiError && events.error.status !== 500
      ? serverMessage(events.error, t('loadFailed'))
      : t('loadFailed');

  return (
    <Stack gap="md">
      <form role="search" aria-label={t('filters')} onSubmit={(event) => event.preventDefault()}>
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }}>
          <TextInput
            label={t('person')}
            description={t('personHint')}
            type="search"
            value={filter.person}
            maxLength={200}
            onChange={(e) => set('person')(e.currentTarget.value)}
          />
          <TextInput
            label={t('object')}
            description={t('objectHint')}
            type="search"
            value={filter.object}
            maxLength={200}
            onChange={(e) => set('object')(e.currentTarget.value)}
          />
          <CodeSelect
            label={t('action')}
            any={t('anyAction')}
            codes={AUDIT_ACTIONS}
            group="actions"
            value={filter.action}
            onChange={set('action')}
          />
          <CodeSelect
            label={t('classification')}
            any={t('anyClassification')}
            codes={AUDIT_CLASSIFICATIONS}
            group="classifications"
            value={filter.classification}
            onChange={set('classification')}
          />
          <CodeSelect
            label={t('outcome')}
            any={t('anyOutcome')}
            codes={AUDIT_OUTCOMES}
            group="outcomes"
            value={filter.outcome}
            onChange={set('outcome')}
          />
          <DateField label={t('from')} value={filter.from} onChange={set('from')} maxDate={filter.to || undefined} />
          <DateField label={t('to')} value={filter.to} onChange={set('to')} minDate={filter.from || undefined} />
        </SimpleGrid>
      </form>

      <Group justify="space-between" gap="sm" mih={36}>
        <Text c="gray.8" role="status">
          {events.isPending
            ? t('loading')
            : events.data
              ? events.data.capped
                ? t('countCapped', { count: events.data.total })
                : t('count', { count: events.data.total })
              : ''}
        </Text>
        <Group gap="sm">
          {filtered && (
            <Button
              variant="subtle"
              onClick={() => {
                setFilter(emptyAuditFilter);
                setPage(1);
              }}
            >
              {t('clear')}
            </Button>
          )}
          {actions}
          <Button component="a" variant="default" href={auditCsvHref(applied)} download title={t('downloadHint')}>
            {t('download')}
          </Button>
        </Group>
      </Group>

      {events.isPending ? (
        <Loader aria-hidden="true" />
      ) : events.isError ? (
        <PanelError>{error}</PanelError>
      ) : events.data.items.length === 0 ? (
        <EmptyState>{t('empty')}</EmptyState>
      ) : (
        <>
          <Stack
            gap="xs"
            hiddenFrom="sm"
            component="ol"
            p={0}
            m={0}
            style={{ listStyle: 'none', opacity: events.isPlaceholderData ? 0.6 : 1 }}
            aria-busy={events.isPlaceholderData}
            aria-label={t('caption')}
          >
            {events.data.items.map((event) => (
              <Paper key={event._id} component="li" withBorder radius="md" p="sm">
                <Group justify="space-between" gap="xs" wrap="nowrap" align="flex-start">
                  <Text size="sm" c="gray.8">
                    <time dateTime={event.occurredAt}>{formatDateTime(event.occurredAt)}</time>
                  </Text>
                  <ClassificationBadge classification={event.classification} />
                </Group>
                <ActionCell event={event} />
                <CardLine label={t('person')}>
                  {event.actor
                    ? `${event.actor.name} (${t(`common:roles.${event.actor.role}`, { defaultValue: event.actor.role })})`
                    : noPersonText(t as Translate, event)}
                </CardLine>
                {event.object && (
                  <CardLine label={t('object')}>
                    {[wordFor(t as Translate, 'objectTypes', event.object.type), objectName(event.object)]
                      .filter(Boolean)
                      .join(': ')}
                  </CardLine>
                )}
                <Group gap="xs" justify="space-between">
                  <OutcomeText outcome={event.outcome} />
                  <Text size="xs" c="gray.8" ff="monospace">
                    {event.address}
                  </Text>
                </Group>
              </Paper>
            ))}
          </Stack>
          <ScrollTable label={t('caption')} minWidth={960} visibleFrom="sm">
            <Table striped highlightOnHover verticalSpacing="sm" aria-busy={events.isPlaceholderData}>
              <Table.Caption>{t('caption')}</Table.Caption>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">{t('time')}</Table.Th>
                  <Table.Th scope="col">{t('person')}</Table.Th>
                  <Table.Th scope="col">{t('action')}</Table.Th>
                  <Table.Th scope="col">{t('object')}</Table.Th>
                  <Table.Th scope="col">{t('classification')}</Table.Th>
                  <Table.Th scope="col">{t('outcome')}</Table.Th>
                  <Table.Th scope="col">{t('address')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody style={{ opacity: events.isPlaceholderData ? 0.6 : 1 }}>
                {events.data.items.map((event) => (
                  <Table.Tr key={event._id}>
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>
                      <time dateTime={event.occurredAt}>{formatDateTime(event.occurredAt)}</time>
                    </Table.Td>
                    <Table.Td>
                      <PersonCell event={event} />
                    </Table.Td>
                    <Table.Td>
                      <ActionCell event={event} />
                    </Table.Td>
                    <Table.Td>
                      <ObjectCell event={event} />
                    </Table.Td>
                    <Table.Td>
                      <ClassificationBadge classification={event.classification} />
                    </Table.Td>
                    <Table.Td>
                      <OutcomeText outcome={event.outcome} />
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
                        {event.address}
                      </Text>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </ScrollTable>
        </>
      )}

      <Pager total={pages} value={page} onChange={setPage} label={t('pages')} />
    </Stack>
  );
}
