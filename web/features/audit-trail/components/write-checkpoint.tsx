import { Button } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useTranslation } from 'react-i18next';

import { serverMessage } from '#web/lib/form-errors.ts';

import { useWriteCheckpoint } from '../api.ts';

/**
 * An admin's "Write checkpoint" (decision 068): where the chain stands now, written outside the database
 * (DATA_DIR/audit-checkpoints and, with STORAGE=s3, the bucket), before handing a copy of the trail to an auditor. The
 * route shows it to admins only; the server refuses anyone else.
 */
export function WriteCheckpointButton() {
  const { t } = useTranslation('audit');
  const write = useWriteCheckpoint();
  return (
    <Button
      variant="default"
      loading={write.isPending}
      onClick={() =>
        write.mutate(undefined, {
          onSuccess: ({ checkpoint, places }) =>
            notifications.show({
              color: 'green',
              message: t('checkpoint.written', {
                seq: checkpoint.seq,
                count: checkpoint.count,
                places: places.join(', '),
              }),
            }),
          onError: (err) => notifications.show({ color: 'red', message: serverMessage(err, t('checkpoint.failed')) }),
        })
      }
    >
      {t('checkpoint.write')}
    </Button>
  );
}
