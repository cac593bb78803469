import { Accordion, Button, Center, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';

import type { AchievementItemJson, GroupAchievementsJson } from '#shared/schemas/group.ts';

import { EmptyState } from '#web/components/empty-state.tsx';
import { FileTitle } from '#web/components/new-tab-link.tsx';
import { PanelError } from '#web/components/panel-error.tsx';

/** The five lists of a group in the order the tab names them (spec §2: Projects, Patents, Technologies, Publications, Courses). */
const CATEGORIES = ['projects', 'patents', 'technologies', 'publications', 'courses'] as const;

function Item({ item, signedIn }: { item: AchievementItemJson; signedIn: boolean }) {
  const { t } = useTranslation('lab');
  return (
    <li>
      <FileTitle name={item.name} fileUrl={item.fileUrl} span />
      {item.description && <Text size="sm">{item.description}</Text>}
      {item.hasFile && !item.fileUrl && (
        <Text size="xs" c="gray.7">
          {signedIn ? t('achievements.fileForMembers') : t('achievements.fileSignIn')}
        </Text>
      )}
    </li>
  );
}

export interface AchievementsListProps {
  groups: GroupAchievementsJson[] | undefined;
  loading?: boolean;
  failed?: boolean;
  /** Files of a group open only for those who may see the group (decision of the groups feature). */
  signedIn: boolean;
  /** Shown when more groups may be loaded. */
  onMore?: () => void;
  loadingMore?: boolean;
}

/** Product & Achievements (spec §2): every group with its projects, patents, technologies, publications and courses. */
export function AchievementsList({ groups, loading, failed, signedIn, onMore, loadingMore }: AchievementsListProps) {
  const { t } = useTranslation('lab');
  if (failed) return <PanelError>{t('achievements.failed')}</PanelError>;
  if (loading || !groups) return <EmptyState>{t('loading')}</EmptyState>;
  if (!groups.length) return <EmptyState>{t('achievements.empty')}</EmptyState>;
  return (
    <Stack gap="md">
      <Accordion multiple defaultValue={[groups[0]!._id]} variant="separated">
        {groups.map((group) => (
          <Accordion.Item key={group._id} value={group._id}>
            <Accordion.Control>
              <Text fw={700} component="span">
                {group.name}
              </Text>
            </Accordion.Control>
            <Accordion.Panel>
              <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="lg">
                {CATEGORIES.map((category) => (
                  <section key={category} aria-label={`${group.name}: ${t(`achievements.${category}`)}`}>
                    <Title order={3} size="h5" mb={4}>
                      {t(`achievements.${category}`)}
                    </Title>
                    {group[category].length ? (
                      <Stack component="ul" gap="xs" p={0} m={0} style={{ listStyle: 'none' }}>
                        {group[category].map((item) => (
                          <Item key={item._id} item={item} signedIn={signedIn} />
                        ))}
                      </Stack>
                    ) : (
                      <Text size="sm" c="gray.7">
                        {t('achievements.none')}
                      </Text>
                    )}
                  </section>
                ))}
              </SimpleGrid>
            </Accordion.Panel>
          </Accordion.Item>
        ))}
      </Accordion>
      {onMore && (
        <Center>
          <Button variant="default" onClick={onMore} loading={loadingMore}>
            {t('achievements.more')}
          </Button>
        </Center>
      )}
    </Stack>
  );
}
