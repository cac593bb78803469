import { Group, Pagination } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** Mantine's Pagination with a spoken name for every control (its arrows have none of their own). */
export function Pager({
  total,
  value,
  onChange,
  label,
}: {
  total: number;
  value: number;
  onChange: (page: number) => void;
  label: string;
}) {
  const { t } = useTranslation('common');
  if (total <= 1) return null;
  return (
    <Group justify="center" component="nav" aria-label={label}>
      <Pagination
        total={total}
        value={Math.min(value, total)}
        onChange={onChange}
        siblings={1}
        getControlProps={(control) => ({ 'aria-label': t(`pager.${control}`) })}
        getItemProps={(page) => ({
          'aria-label': t('pager.page', { page }),
          'aria-current': page === value ? 'page' : undefined,
        })}
      />
    </Group>
  );
}
