import { Checkbox, Fieldset, Group, ScrollArea, SimpleGrid, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { PanelError } from '#web/components/panel-error.tsx';
import { PanelLoader } from '#web/components/panel-loader.tsx';

import { useStaff } from '../api.ts';
import { employeeLabel } from '../employee-label.ts';

/** How many people the server sends per filter; the filter box finds the rest (hundreds of staff). */
const SHOWN = 150;

export interface EmployeeChecklistProps {
  /** Chosen user ids (kept while the filter hides them). */
  value: string[];
  onChange: (ids: string[]) => void;
  /** The legend: 'Assign Employees to Group' on the create form. */
  legend: string;
  /** People already in this group are left out (Manage Members' add list). */
  excludeGroupId?: string;
  disabled?: boolean;
}

/**
 * 'Assign Employees to Group' (spec §2): a checklist in a scrolling three-column grid (about 15rem high), each person
 * named by full name, else email, else 'Unknown Employee'; 'Loading employees...', an error text, or 'No employees
 * available to assign.' With hundreds of staff, a filter box searches names and emails on the server.
 */
export function EmployeeChecklist({ value, onChange, legend, excludeGroupId, disabled }: EmployeeChecklistProps) {
  const { t } = useTranslation('groups');
  const [filter, setFilter] = useState('');
  const [query] = useDebouncedValue(filter.trim(), 250);
  const staff = useStaff(query, SHOWN);
  const people = (staff.data ?? []).filter((p) => !excludeGroupId || p.group?._id !== excludeGroupId);
  const shownOf = staff.data?.length ?? 0;

  const toggle = (id: string, checked: boolean) => onChange(checked ? [...value, id] : value.filter((v) => v !== id));

  let body;
  if (staff.isPending) body = <PanelLoader label={t('create.loadingEmployees')} />;
  else if (staff.isError) body = <PanelError>{t('create.employeesError')}</PanelError>;
  else if (!people.length) body = <Text c="gray.8">{query ? t('create.noMatch') : t('create.noEmployees')}</Text>;
  else
    body = (
      <ScrollArea.Autosize mah="15rem" type="auto" offsetScrollbars>
        <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }} spacing="sm" verticalSpacing="xs" p={2}>
          {people.map((p) => (
            <Checkbox
              key={p._id}
              label={employeeLabel(p, t('create.unknownEmployee'))}
              description={p.group ? t('create.currentGroup', { group: p.group.name }) : undefined}
              checked={value.includes(p._id)}
              onChange={(e) => toggle(p._id, e.currentTarget.checked)}
              disabled={disabled}
            />
          ))}
        </SimpleGrid>
      </ScrollArea.Autosize>
    );

  return (
    <Fieldset legend={legend} variant="filled" disabled={disabled}>
      <Group justify="space-between" align="flex-end" mb="sm" wrap="wrap">
        <TextInput
          label={t('create.filter')}
          placeholder={t('create.filterPlaceholder')}
          value={filter}
          onChange={(e) => setFilter(e.currentTarget.value)}
          type="search"
          style={{ flex: '1 1 16rem' }}
        />
        <Text size="sm" c="gray.8" aria-live="polite">
          {t('create.selected', { count: value.length })}
        </Text>
      </Group>
      {body}
      {shownOf >= SHOWN && (
        <Text size="xs" c="gray.7" mt="xs">
          {t('create.showing', { shown: SHOWN })}
        </Text>
      )}
    </Fieldset>
  );
}
