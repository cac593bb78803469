import { useState } from 'react';
import { Anchor, Badge, Button, Card, Group, SimpleGrid, Stack, Text, Title, VisuallyHidden } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { AchievementItemJson, GroupAchievementsJson } from '#shared/schemas/group.ts';
import { EmptyState } from '#web/components/empty-state.tsx';
import { useGroupAchievements } from '../api.ts';
import { isOffline, Loading, PanelError } from './group-parts.tsx';

/** Groups per page of the tab; 'Show more groups' asks for the next ones. */
const PAGE = 20;
/** The lab home's order (spec §2 Product & Achievements). */
const LISTS = ['projects', 'patents', 'technologies', 'publications', 'courses'] as const;

function Item({ item }: { item: AchievementItemJson }) {
  const { t } = useTranslation('groups');
  return (
    <Stack gap={0}>
      {item.fileUrl ? (
        <Anchor href={item.fileUrl} target="_blank" rel="noopener noreferrer" fw={600}>
          {item.name}
          <VisuallyHidden>{t('opensInNewTab')}</VisuallyHidden>
        </Anchor>
      ) : (
        <Group gap="xs">
          <Text fw={600}>{item.name}</Text>
          {item.hasFile && (
            <Badge size="xs" variant="light" color="gray.8">
              {t('lists.membersOnly')}
            </Badge>
          )}
        </Group>
      )}
      {item.description && (
        <Text size="sm" c="gray.8" style={{ whiteSpace: 'pre-line' }}>
          {item.description}
        </Text>
      )}
    </Stack>
  );
}

function GroupCard({ group }: { group: GroupAchievementsJson }) {
  const { t } = useTranslation('groups');
  const lists = LISTS.filter((field) => group[field].length);
  const headingId = `achievements-${group._id}`;
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby={headingId}>
      <Title order={3} size="h4" mb="sm" id={headingId}>
        {group.name}
      </Title>
      {lists.length === 0 ? (
        <Text c="gray.8">{t('achievements.nothing')}</Text>
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg">
          {lists.map((field) => (
            <div key={field}>
              <Title order={4} size="h5" mb={6}>
                {t(`lists.${field}`)}
              </Title>
              <Stack component="ul" gap="sm" p={0} m={0} style={{ listStyle: 'none' }}>
                {group[field].map((item) => (
                  <li key={item._id}>
                    <Item item={item} />
                  </li>
                ))}
              </Stack>
            </div>
          ))}
        </SimpleGrid>
      )}
    </Card>
  );
}

/**
 * Product & Achievements of the lab home (spec §2): every group with its projects, patents, technologies,
 * publications and courses. The lists are public; a file link appears only for those who may open it (decision 006).
 */
export function GroupAchievements() {
  const { t } = useTranslation('groups');
  const [limit, setLimit] = useState(PAGE);
  const groups = useGroupAchievements(limit);
  if (groups.isPending) return <Loading label={t('achievements.loading')} />;
  if (groups.isError)
    return <PanelError>{isOffline(groups.error) ? t('errors.connect') : t('achievements.error')}</PanelError>;
  if (!groups.data.length) return <EmptyState>{t('achievements.empty')}</EmptyState>;
  return (
    <Stack gap="md">
      {groups.data.map((g) => (
        <GroupCard key={g._id} group={g} />
      ))}
      {groups.data.length >= limit && (
        <div>
          <Button variant="light" onClick={() => setLimit((n) => n + PAGE)} loading={groups.isFetching}>
            {t('achievements.loadMore')}
          </Button>
        </div>
      )}
    </Stack>
  );
}
