import { Anchor, Group, Select, Stack, Table, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { DISPATCH_MODES, type DispatchJson, type DispatchModeName } from '#shared/schemas/dispatch.ts';

import { DataTable } from '#web/components/data-table.tsx';
import { Pager } from '#web/components/pager.tsx';
import { PanelError } from '#web/components/panel-error.tsx';
import { PanelLoader } from '#web/components/panel-loader.tsx';
import { paths } from '#web/lib/paths.ts';
import { useFormatDate } from '#web/lib/use-format-date.ts';

import { PAGE_SIZE, registerCsvUrl, type RegisterFilter, useDispatchRegister } from '../api.ts';

function Row({ d }: { d: DispatchJson }) {
  const { t } = useTranslation('dispatch');
  const { formatDate } = useFormatDate();
  return (
    <Table.Tr>
      <Table.Td style={{ whiteSpace: 'nowrap' }}>{d.outwardNumber}</Table.Td>
      <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDate(d.date)}</Table.Td>
      <Table.Td>{t(`modes.${d.mode}`)}</Table.Td>
      <Table.Td style={{ overflowWrap: 'anywhere' }}>{d.subject}</Table.Td>
      <Table.Td>
        <Anchor component={Link} to={paths.efile.to(d.efile._id)}>
          {d.efile.number}
        </Anchor>
        {d.itemSeq !== null && ` (C/${d.itemSeq})`}
      </Table.Td>
      <Table.Td>
        <Stack gap={2}>
          {d.recipients.map((r, i) => (
            <Text size="sm" key={i} style={{ overflowWrap: 'anywhere' }}>
              {[r.name, r.address, r.email].filter(Boolean).join(', ')}
            </Text>
          ))}
        </Stack>
      </Table.Td>
      <Table.Td>
        {d.recipients
          .filter((r) => r.delivery)
          .map((r) => t(`delivery.${r.delivery}`, { defaultValue: r.delivery ?? '' }))
          .join('; ')}
      </Table.Td>
    </Table.Tr>
  );
}

/** The Dispatch Register (decision 120): search, mode and year, paged on the server, and its CSV. */
export function DispatchRegister() {
  const { t } = useTranslation('dispatch');
  const [q, setQ] = useState('');
  const [mode, setMode] = useState<DispatchModeName | ''>('');
  const [year, setYear] = useState('');
  const [page, setPage] = useState(1);
  const [debounced] = useDebouncedValue(q, 300);
  const filter: RegisterFilter = { q: debounced, mode, year };
  const register = useDispatchRegister(filter, page);
  const thisYear = new Date().getFullYear();
  const years = Array.from({ length: 6 }, (_, i) => String(thisYear - i));
  const filtered = Boolean(debounced.trim() || mode || year);
  return (
    <Stack gap="md">
      <Text>{t('register.intro')}</Text>
      <Group align="flex-end" gap="sm" wrap="wrap">
        <TextInput
          label={t('register.search')}
          placeholder={t('register.searchPlaceholder')}
          value={q}
          onChange={(e) => {
            setQ(e.currentTarget.value);
            setPage(1);
          }}
          style={{ flex: '1 1 16rem' }}
        />
        <Select
          label={t('register.mode')}
          data={[
            { value: '', label: t('register.anyMode') },
            ...DISPATCH_MODES.map((m) => ({ value: m, label: t(`modes.${m}`) })),
          ]}
          value={mode}
          onChange={(v) => {
            setMode((v ?? '') as DispatchModeName | '');
            setPage(1);
          }}
          allowDeselect={false}
          style={{ flex: '0 1 12rem' }}
        />
        <Select
          label={t('register.year')}
          data={[{ value: '', label: t('register.anyYear') }, ...years.map((y) => ({ value: y, label: y }))]}
          value={year}
          onChange={(v) => {
            setYear(v ?? '');
            setPage(1);
          }}
          allowDeselect={false}
          style={{ flex: '0 1 8rem' }}
        />
        <Anchor href={registerCsvUrl(filter)} download>
          {t('register.exportCsv')}
        </Anchor>
      </Group>
      {register.isPending ? (
        <PanelLoader />
      ) : register.isError ? (
        <PanelError>{t('register.failed')}</PanelError>
      ) : register.data.items.length === 0 ? (
        <Text c="gray.8">{filtered ? t('register.noMatch') : t('register.empty')}</Text>
      ) : (
        <>
          <Text size="sm" c="gray.8" role="status">
            {t('register.total', { count: register.data.total })}
          </Text>
          <DataTable
            caption={t('register.caption')}
            minWidth={900}
            headers={[
              t('register.outwardNumber'),
              t('register.date'),
              t('register.mode'),
              t('register.subject'),
              t('register.file'),
              t('register.recipients'),
              t('register.delivery'),
            ]}
          >
            {register.data.items.map((d) => (
              <Row key={d._id} d={d} />
            ))}
          </DataTable>
          <Pager
            total={Math.ceil(register.data.total / PAGE_SIZE)}
            value={page}
            onChange={setPage}
            label={t('register.pager')}
          />
        </>
      )}
    </Stack>
  );
}
