import type { DocumentModel } from '../../../core/configs/document-decider.js';
import { savedConfigs } from '../../../core/configs/config-documents.js';
import { savedOverlays } from '../../../core/configs/overlay-documents.js';
import { Problems } from '../../../core/problems.js';
import { deciderSpec } from '../jobs/decider-spec.js';

const T0 = '2026-01-01T00:00:00.000Z';
const T1 = '2026-01-02T00:00:00.000Z';
const owner = { accountId: 'acc_1', mode: 'live' } as const;
const content = { version: 1, sector: 'cards', tables: [{ name: 'transactions', rows: 10 }] };

describeDocument('Config', savedConfigs);
describeDocument('Overlay', savedOverlays);

function describeDocument<Noun extends string>(noun: Noun, model: DocumentModel<Noun>) {
  const given = deciderSpec(model.decider);
  const saved = {
    type: `${noun}Saved`,
    data: { id: 'x_1', account_id: 'acc_1', mode: 'live', name: 'daily', content, saved_at: T0 },
  } as never;
  const updatedContent = { ...content, seed: 1 };

  describe(`${noun.toLowerCase()} decider`, () => {
    it(`given nothing, when Save, then ${noun}Saved; a second Save of the id is a conflict`, () => {
      given([]).when({ type: 'Save', id: 'x_1', owner, name: 'daily', content, at: T0 }).then([saved]);
      given([saved])
        .when({ type: 'Save', id: 'x_1', owner, name: 'other', content, at: T1 })
        .thenThrows(Problems.conflict);
    });

    it(`given saved, when Update, then ${noun}Updated with the whole new state; an update that changes nothing appends nothing`, () => {
      given([saved])
        .when({ type: 'Update', id: 'x_1', owner, content: updatedContent, at: T1 })
        .then([
          {
            type: `${noun}Updated`,
            data: { id: 'x_1', name: 'daily', content: updatedContent, updated_at: T1 },
          } as never,
        ]);
      given([saved]).when({ type: 'Update', id: 'x_1', owner, name: 'daily', at: T1 }).then([]);
    });

    it(`given saved, when Delete, then ${noun}Deleted; afterwards it is gone for every command`, () => {
      const deleted = { type: `${noun}Deleted`, data: { id: 'x_1', deleted_at: T1 } } as never;
      given([saved]).when({ type: 'Delete', id: 'x_1', owner, at: T1 }).then([deleted]);
      given([saved, deleted]).when({ type: 'Delete', id: 'x_1', owner, at: T1 }).thenThrows(Problems.notFound);
      given([saved, deleted])
        .when({ type: 'Update', id: 'x_1', owner, name: 'new', at: T1 })
        .thenThrows(Problems.notFound);
    });

    it('refuses another account, the other mode, and an id never saved, all as not found', () => {
      given([saved])
        .when({ type: 'Delete', id: 'x_1', owner: { accountId: 'acc_2', mode: 'live' }, at: T1 })
        .thenThrows(Problems.notFound);
      given([saved])
        .when({ type: 'Update', id: 'x_1', owner: { accountId: 'acc_1', mode: 'test' }, name: 'n', at: T1 })
        .thenThrows(Problems.notFound);
      given([]).when({ type: 'Delete', id: 'x_1', owner, at: T1 }).thenThrows(Problems.notFound);
    });
  });
}
