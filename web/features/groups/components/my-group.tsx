import { Anchor, Avatar, Button, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { EmptyState } from '#web/components/empty-state.tsx';
import { PageTitle } from '#web/components/page-title.tsx';
import { PanelError } from '#web/components/panel-error.tsx';
import { PanelLoader } from '#web/components/panel-loader.tsx';

import { useMyGroup } from '../api.ts';
import { isOffline } from './group-parts.tsx';

/**
 * My Group (spec §2): the group's name, description and its employees with their emails. 'You are not assigned to
 * any group or unauthorized.' when there is none; 'No team members found.' for an empty list.
 */
export function MyGroup({ groupTo }: { groupTo: (id: string) => string }) {
  const { t } = useTranslation('groups');
  const group = useMyGroup();
  if (group.isPending) {
    return (
      <>
        <PageTitle>{t('myGroup.title')}</PageTitle>
        <PanelLoader />
      </>
    );
  }
  if (group.isError) {
    return (
      <>
        <PageTitle>{t('myGroup.title')}</PageTitle>
        <PanelError>{isOffline(group.error) ? t('errors.connect') : t('myGroup.error')}</PanelError>
      </>
    );
  }
  const { _id, name, description, employees } = group.data;
  return (
    <>
      <Group justify="space-between" align="flex-start" wrap="wrap">
        <PageTitle mb={4}>{name}</PageTitle>
        <Button component={Link} to={groupTo(_id)} variant="light">
          {t('myGroup.openGroup')}
        </Button>
      </Group>
      {description && (
        <Text c="gray.8" mb="lg" style={{ whiteSpace: 'pre-line' }}>
          {description}
        </Text>
      )}
      <Title order={2} size="h3" mb="md" mt="md">
        {t('myGroup.members')}
      </Title>
      {employees.length === 0 ? (
        <EmptyState>{t('myGroup.noMembers')}</EmptyState>
      ) : (
        <SimpleGrid component="ul" cols={{ base: 1, sm: 2, lg: 3 }} p={0} m={0} style={{ listStyle: 'none' }}>
          {employees.map((e) => (
            <Card component="li" key={e._id} withBorder radius="md" padding="md">
              <Group wrap="nowrap" gap="sm">
                <Avatar src={e.photo} alt="" radius="xl" color="navy">
                  {e.name.slice(0, 1)}
                </Avatar>
                <Stack gap={0} style={{ minWidth: 0 }}>
                  <Text fw={600}>{e.name}</Text>
                  {e.designation && (
                    <Text size="sm" c="gray.7">
                      {e.designation}
                    </Text>
                  )}
                  <Anchor href={`mailto:${e.email}`} size="sm" style={{ overflowWrap: 'anywhere' }}>
                    {e.email}
                  </Anchor>
                </Stack>
              </Group>
            </Card>
          ))}
        </SimpleGrid>
      )}
    </>
  );
}
