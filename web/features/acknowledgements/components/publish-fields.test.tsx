import { act, fireEvent, screen, within } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';

import { todayInIndia } from '#shared/format.ts';
import type { ItemAcknowledgementJson } from '#shared/schemas/acknowledgements.ts';

import { setLanguage, translateMessage } from '#web/i18n/index.ts';
import { fillIn, pickOption, render } from '#web/test/render.tsx';

import { type AcknowledgementOwner, useAcknowledgementSlot } from './publish-fields.tsx';

afterEach(async () => {
  await act(() => setLanguage('en'));
});

const GROUPS = [
  { _id: '00000000-0000-4000-8000-0000000000a1', name: 'Fire Safety' },
  { _id: '00000000-0000-4000-8000-0000000000a2', name: 'Explosives Storage' },
];
const LAB: AcknowledgementOwner = { type: 'lab' };
const OWN_GROUP: AcknowledgementOwner = { type: 'group', group: GROUPS[0]! };

type Item = { name: string; acknowledgement: ItemAcknowledgementJson | null };

/**
 * A host form as the lab's and groups' notice forms are (web/lib/form-slot.ts): it keeps the slot's value, shows its
 * fields, checks them on submit and writes them into the multipart body, which the test reads.
 */
function Host({
  owner,
  item = null,
  onSend,
}: {
  owner: AcknowledgementOwner;
  item?: Item | null;
  onSend: (d: FormData) => void;
}) {
  const slot = useAcknowledgementSlot(owner, GROUPS);
  const [value, setValue] = useState(() => slot.initial(item));
  const [errors, setErrors] = useState<Record<string, string>>({});
  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        const found = slot.validate(value, item);
        setErrors(found);
        if (Object.keys(found).length) return;
        const data = new FormData();
        slot.write(value, data, item);
        onSend(data);
      }}
    >
      {slot.render({ value, onChange: setValue, error: (f) => (errors[f] ? translateMessage(errors[f]) : null), item })}
      <button type="submit">Publish</button>
    </form>
  );
}

const sent = (data: FormData) => Object.fromEntries(data.entries());

function setup(owner: AcknowledgementOwner, item: Item | null = null) {
  const bodies: Record<string, FormDataEntryValue>[] = [];
  const view = render(<Host owner={owner} item={item} onSend={(d) => bodies.push(sent(d))} />);
  return { ...view, bodies };
}

/** A date typed the Indian way, day first. */
const typed = (iso: string) => iso.split('-').reverse().join('-');
const NEXT_YEAR = `${Number(todayInIndia().slice(0, 4)) + 1}-03-31`;

describe('Requires acknowledgement (the publishing fields)', () => {
  it('is off by default and says so to the server on create, with no deadline or audience shown', async () => {
    const { user, bodies } = setup(LAB);
    const toggle = screen.getByRole('switch', { name: 'Requires acknowledgement' });
    expect(toggle).not.toBeChecked();
    expect(screen.queryByLabelText(/^Acknowledge by/)).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Publish' }));
    expect(bodies).toEqual([{ requiresAcknowledgement: 'false' }]);
  });

  it('asks for the deadline in the shared schema’s words, and for a group when "Some groups" is chosen', async () => {
    const { user, bodies } = setup(LAB);
    await user.click(screen.getByRole('switch', { name: 'Requires acknowledgement' }));
    await user.click(screen.getByRole('button', { name: 'Publish' }));
    expect(await screen.findByText('Please choose the date by which it must be acknowledged.')).toBeInTheDocument();
    expect(bodies).toEqual([]);

    // A day before today cannot be chosen (the calendar's minimum): the field stays empty.
    fillIn(/^Acknowledge by/, '01-01-2020');
    expect(screen.getByLabelText(/^Acknowledge by/)).toHaveValue('');
    fillIn(/^Acknowledge by/, typed(NEXT_YEAR));
    await user.click(screen.getByRole('radio', { name: 'Some groups' }));
    await user.click(screen.getByRole('button', { name: 'Publish' }));
    expect(await screen.findByText('Please choose at least one group.')).toBeInTheDocument();
    expect(screen.queryByText('Please choose the date by which it must be acknowledged.')).not.toBeInTheDocument();
    expect(bodies).toEqual([]);
  });

  it('sends the deadline (typed day first) and the chosen groups of a lab circular', async () => {
    const { user, bodies } = setup(LAB);
    await user.click(screen.getByRole('switch', { name: 'Requires acknowledgement' }));
    // The whole lab is the audience until another is chosen.
    expect(screen.getByRole('radio', { name: 'Whole lab' })).toBeChecked();
    fillIn(/^Acknowledge by/, typed(NEXT_YEAR));
    await user.click(screen.getByRole('radio', { name: 'Some groups' }));
    await pickOption(user, /^Groups/, 'Fire Safety');
    await pickOption(user, /^Groups/, 'Explosives Storage');
    await user.click(screen.getByRole('button', { name: 'Publish' }));
    expect(bodies).toEqual([
      {
        requiresAcknowledgement: 'true',
        acknowledgeBy: NEXT_YEAR,
        audienceScope: 'groups',
        audienceGroups: JSON.stringify([GROUPS[0]!._id, GROUPS[1]!._id]),
        audienceRoles: '[]',
      },
    ]);
  });

  it('sends the chosen roles, and needs one', async () => {
    const { user, bodies } = setup(LAB);
    await user.click(screen.getByRole('switch', { name: 'Requires acknowledgement' }));
    fillIn(/^Acknowledge by/, typed(NEXT_YEAR));
    await user.click(screen.getByRole('radio', { name: 'Some roles' }));
    await user.click(screen.getByRole('button', { name: 'Publish' }));
    expect(await screen.findByText('Please choose at least one role.')).toBeInTheDocument();
    await pickOption(user, /^Roles/, 'Associate Director');
    await user.click(screen.getByRole('button', { name: 'Publish' }));
    expect(bodies).toEqual([
      expect.objectContaining({
        audienceScope: 'roles',
        audienceRoles: '["associate_director"]',
        audienceGroups: '[]',
      }),
    ]);
  });

  it("gives a group's notice its own group as the audience, or some roles in it; never the whole lab", async () => {
    const { user, bodies } = setup(OWN_GROUP);
    await user.click(screen.getByRole('switch', { name: 'Requires acknowledgement' }));
    expect(screen.getByRole('radio', { name: 'This group (Fire Safety)' })).toBeChecked();
    expect(screen.getByRole('radio', { name: 'Some roles in this group' })).toBeInTheDocument();
    expect(screen.queryByRole('radio', { name: 'Whole lab' })).not.toBeInTheDocument();
    expect(screen.queryByLabelText(/^Groups/)).not.toBeInTheDocument();
    fillIn(/^Acknowledge by/, typed(NEXT_YEAR));
    await user.click(screen.getByRole('button', { name: 'Publish' }));
    expect(bodies).toEqual([
      expect.objectContaining({ audienceScope: 'groups', audienceGroups: JSON.stringify([GROUPS[0]!._id]) }),
    ]);
  });

  it('shows a published acknowledgement as fixed, links to its report, and sends nothing of it on edit', async () => {
    const acknowledgement: ItemAcknowledgementJson = {
      _id: '00000000-0000-4000-8000-0000000000c1',
      deadline: '2026-11-21',
      audience: { scope: 'groups', groups: GROUPS, roles: [] },
      publishedAt: '2026-11-01T04:30:00Z',
    };
    const { user, bodies } = setup(LAB, { name: 'Explosives storage', acknowledgement });
    const fixed = screen.getByRole('group', { name: 'Acknowledgement' });
    expect(
      within(fixed).getByText(
        'Acknowledgement by 21 Nov 2026 from Fire Safety, Explosives Storage. The deadline and audience were fixed when it was published.',
      ),
    ).toBeInTheDocument();
    expect(within(fixed).getByRole('link', { name: 'Acknowledgement report' })).toHaveAttribute(
      'href',
      `/acknowledgements/requests/${acknowledgement._id}`,
    );
    expect(screen.queryByRole('switch')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Publish' }));
    expect(bodies).toEqual([{}]);
  });

  it('reads in Hindi, the deadline written the Indian way', async () => {
    const { user } = setup(LAB);
    await act(() => setLanguage('hi'));
    await user.click(screen.getByRole('switch', { name: 'पावती आवश्यक' }));
    // Its clear button is named after it ("पावती की अंतिम तिथि साफ़ करें"): the text box is the one with its name.
    const deadline = screen.getByRole('textbox', { name: /^पावती की अंतिम तिथि/ });
    fireEvent.change(deadline, { target: { value: '21-11-2030' } });
    fireEvent.blur(deadline);
    expect(deadline).toHaveValue('21 नव॰ 2030');
    expect(screen.getByRole('radio', { name: 'पूरी प्रयोगशाला' })).toBeChecked();
    await user.click(screen.getByRole('radio', { name: 'कुछ भूमिकाएँ' }));
    await pickOption(user, /^भूमिकाएँ/, 'सहायक निदेशक');
    expect(screen.getByText('सहायक निदेशक')).toBeInTheDocument();
  });
});
