import { Anchor, Fieldset, Group, MultiSelect, Radio, Stack, Switch, Text } from '@mantine/core';
import { type ReactNode, useId, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import type { Role } from '#shared/constants.ts';
import { todayInIndia } from '#shared/format.ts';
import {
  type AcknowledgementScope,
  acknowledgementSettingsInput,
  type GroupRefJson,
  type ItemAcknowledgementJson,
} from '#shared/schemas/acknowledgements.ts';

import { DateField } from '#web/components/date-field.tsx';
import { useInPlaceCombobox } from '#web/components/in-place-combobox.ts';
import { assignableRoles } from '#web/lib/access.policy.ts';
import { topField, zodValidate } from '#web/lib/form-errors.ts';
import type { FormSlot, FormSlotProps } from '#web/lib/form-slot.ts';
import { paths } from '#web/lib/paths.ts';
import { useFormatDate } from '#web/lib/use-format-date.ts';

import { audienceText } from './acknowledgement-parts.tsx';

/** The acknowledgement settings as the publishing form holds them; named as the multipart fields they become. */
export interface AcknowledgementDraft {
  requiresAcknowledgement: boolean;
  acknowledgeBy: string;
  audienceScope: AcknowledgementScope;
  audienceGroups: string[];
  audienceRoles: Role[];
}

/** Whose notice or circular is published: the lab's, or a group's (whose audience is its own members). */
export type AcknowledgementOwner = { type: 'lab' } | { type: 'group'; group: GroupRefJson };

/** What a notice or circular of the lab or a group carries of its acknowledgement (shared/schemas/unit.ts). */
interface ItemWithAcknowledgement {
  name: string;
  acknowledgement?: ItemAcknowledgementJson | null;
}

const NO_GROUPS: GroupRefJson[] = [];
const FIELDS = [
  'requiresAcknowledgement',
  'acknowledgeBy',
  'audienceScope',
  'audienceGroups',
  'audienceRoles',
] as const;

/** A new item asks for nothing; a lab item's audience is the whole lab, a group item's its own group. */
export function blankDraft(owner: AcknowledgementOwner): AcknowledgementDraft {
  return {
    requiresAcknowledgement: false,
    acknowledgeBy: '',
    audienceScope: owner.type === 'lab' ? 'lab' : 'groups',
    audienceGroups: owner.type === 'lab' ? [] : [owner.group._id],
    audienceRoles: [],
  };
}

/**
 * The multipart fields of the draft (shared/schemas/acknowledgements.ts acknowledgementFieldsInput). On create they are
 * always sent, "false" when not asked for. An item published with an acknowledgement keeps it as it was (deadline and
 * audience are fixed at publishing): nothing is sent on its edit; an item published without one may ask for it later.
 */
export function writeDraft(draft: AcknowledgementDraft, data: FormData, item: ItemWithAcknowledgement | null): void {
  if (item?.acknowledgement) return;
  if (!draft.requiresAcknowledgement) {
    if (!item) data.set('requiresAcknowledgement', 'false');
    return;
  }
  data.set('requiresAcknowledgement', 'true');
  data.set('acknowledgeBy', draft.acknowledgeBy);
  data.set('audienceScope', draft.audienceScope);
  data.set('audienceGroups', JSON.stringify(draft.audienceScope === 'groups' ? draft.audienceGroups : []));
  data.set('audienceRoles', JSON.stringify(draft.audienceScope === 'roles' ? draft.audienceRoles : []));
}

/** The draft checked by the shared schema, in its sentences (English; the form words them), one per field. */
const validateSettings = zodValidate<AcknowledgementDraft>(acknowledgementSettingsInput, { fold: topField });
export function validateDraft(draft: AcknowledgementDraft, item: ItemWithAcknowledgement | null) {
  if (item?.acknowledgement || !draft.requiresAcknowledgement) return {};
  return Object.fromEntries(
    Object.entries(validateSettings(draft)).filter((e): e is [string, string] => typeof e[1] === 'string'),
  );
}

/** An item's acknowledgement, fixed since it was published: its deadline, audience and a link to its report. */
export function AcknowledgementSummary({ item }: { item: ItemWithAcknowledgement }) {
  const { formatDate } = useFormatDate();
  const { t } = useTranslation('acknowledgements');
  const ack = item.acknowledgement;
  if (!ack) return null;
  return (
    <Text size="xs" c="gray.8" mt={4}>
      {t('publish.summary', { date: formatDate(ack.deadline) })}
      {' · '}
      <Anchor
        component={Link}
        to={paths.acknowledgementRequest.to(ack._id)}
        size="xs"
        underline="always"
        aria-label={t('publish.reportLabel', { name: item.name })}
      >
        {t('publish.report')}
      </Anchor>
    </Text>
  );
}

export interface AcknowledgementFieldsProps extends FormSlotProps<AcknowledgementDraft, ItemWithAcknowledgement> {
  owner: AcknowledgementOwner;
  /** Every group of the lab, for a lab item's "Some groups". */
  groups: GroupRefJson[];
}

/**
 * "Requires acknowledgement" in the publishing form of a lab or group notice or circular (decision 074): a switch,
 * then the deadline (the portal's date field, Indian style, today or later) and the audience. A lab item goes to the
 * whole lab, some groups or some roles; a group item to its own group or some roles in it. Once published, the
 * deadline and audience are fixed: editing the item shows them and links to the report.
 */
export function AcknowledgementFields({ value, onChange, error, item, owner, groups }: AcknowledgementFieldsProps) {
  const { formatDate } = useFormatDate();
  const { t } = useTranslation(['acknowledgements', 'common']);
  const inPlace = useInPlaceCombobox();
  const hintId = useId();
  const set = (patch: Partial<AcknowledgementDraft>) => onChange({ ...value, ...patch });
  const published = item?.acknowledgement;

  if (published)
    return (
      <Fieldset legend={t('publish.legend')}>
        <Text size="sm">
          {t('publish.fixed', { date: formatDate(published.deadline), audience: audienceText(published.audience, t) })}
        </Text>
        <Anchor component={Link} to={paths.acknowledgementRequest.to(published._id)} size="sm" underline="always">
          {t('publish.report')}
        </Anchor>
      </Fieldset>
    );

  const scopes: { value: AcknowledgementScope; label: string }[] =
    owner.type === 'lab'
      ? [
          { value: 'lab', label: t('publish.scope.lab') },
          { value: 'groups', label: t('publish.scope.groups') },
          { value: 'roles', label: t('publish.scope.roles') },
        ]
      : [
          { value: 'groups', label: `${t('publish.scope.ownGroup')} (${owner.group.name})` },
          { value: 'roles', label: t('publish.scope.ownGroupRoles') },
        ];
  const chooseScope = (scope: AcknowledgementScope) =>
    set({
      audienceScope: scope,
      // A group's item reaches its own group: "This group" is that group and nothing else.
      ...(owner.type === 'group' && scope === 'groups' ? { audienceGroups: [owner.group._id] } : {}),
    });

  return (
    <Fieldset legend={t('publish.legend')}>
      <Stack gap="sm">
        <div>
          {/* The hint apart from the label, which Mantine's switch wraps: its name stays "Requires acknowledgement". */}
          <Switch
            label={t('publish.requires')}
            aria-describedby={hintId}
            checked={value.requiresAcknowledgement}
            onChange={(event) => set({ requiresAcknowledgement: event.currentTarget.checked })}
            error={error('requiresAcknowledgement')}
          />
          <Text size="sm" c="gray.8" id={hintId} mt={4}>
            {t('publish.requiresHint')}
          </Text>
        </div>
        {value.requiresAcknowledgement && (
          <>
            <DateField
              label={t('publish.deadline')}
              required
              minDate={todayInIndia()}
              value={value.acknowledgeBy}
              onChange={(acknowledgeBy) => set({ acknowledgeBy })}
              error={error('acknowledgeBy')}
              maw={320}
            />
            <Radio.Group
              label={t('publish.audience')}
              required
              value={value.audienceScope}
              onChange={(scope) => chooseScope(scope as AcknowledgementScope)}
              error={error('audienceScope')}
            >
              <Group gap="lg" mt={6}>
                {scopes.map((s) => (
                  <Radio key={s.value} value={s.value} label={s.label} />
                ))}
              </Group>
            </Radio.Group>
            {owner.type === 'lab' && value.audienceScope === 'groups' && (
              <MultiSelect
                label={t('publish.groups')}
                placeholder={value.audienceGroups.length ? undefined : t('publish.groupsPlaceholder')}
                required
                searchable
                clearable
                clearButtonProps={{ 'aria-label': t('publish.clearGroups') }}
                hidePickedOptions
                nothingFoundMessage={t('publish.noGroupsFound')}
                data={groups.map((g) => ({ value: g._id, label: g.name }))}
                value={value.audienceGroups}
                onChange={(audienceGroups) => set({ audienceGroups })}
                error={error('audienceGroups')}
                {...inPlace}
              />
            )}
            {value.audienceScope === 'roles' && (
              <MultiSelect
                label={t('publish.roles')}
                placeholder={value.audienceRoles.length ? undefined : t('publish.rolesPlaceholder')}
                required
                clearable
                clearButtonProps={{ 'aria-label': t('publish.clearRoles') }}
                hidePickedOptions
                data={assignableRoles.map((r) => ({ value: r, label: t(`common:roles.${r}`) }))}
                value={value.audienceRoles}
                onChange={(roles) => set({ audienceRoles: roles as Role[] })}
                error={error('audienceRoles')}
                {...inPlace}
              />
            )}
          </>
        )}
      </Stack>
    </Fieldset>
  );
}

/**
 * The acknowledgement fields as a slot of the lab's or a group's notice and circular form (web/lib/form-slot.ts),
 * composed by the route that shows that form: `owner` says whose items they are, `groups` lists the lab's groups.
 */
export function useAcknowledgementSlot(
  owner: AcknowledgementOwner,
  groups: GroupRefJson[] = NO_GROUPS,
): FormSlot<AcknowledgementDraft, ItemWithAcknowledgement> {
  const ownGroup = owner.type === 'group' ? owner.group : null;
  return useMemo(() => {
    const whose: AcknowledgementOwner = ownGroup ? { type: 'group', group: ownGroup } : { type: 'lab' };
    return {
      fields: FIELDS,
      initial: () => blankDraft(whose),
      render: (props): ReactNode => <AcknowledgementFields {...props} owner={whose} groups={groups} />,
      validate: validateDraft,
      write: writeDraft,
      summary: (item): ReactNode => <AcknowledgementSummary item={item} />,
    };
    // NOTE: the group's id and name, not the object the caller builds anew on each render.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [ownGroup?._id, ownGroup?.name, groups]);
}
