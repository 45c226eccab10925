import { ApiError } from '../../contract';
import { EVENT_COLUMNS, eventObject, type EventRow } from './event-object';
import { readAction } from '../pipeline/action';
import { listPage } from '../pipeline/list-page';

export const listEvents = readAction('list_events', async ({ db, merchant }, input) => {
  const page = await listPage<EventRow>(db, {
    table: 'events',
    columns: EVENT_COLUMNS,
    merchantId: merchant.id,
    limit: input.limit,
    startingAfter: input.starting_after,
    where: { type: input.type, object_id: input.object_id },
    // An object's events are a handful: read through the object's index, not gathered with the merchant's.
    walk: { column: 'object_id', value: input.object_id },
  });
  return { ...page, data: page.data.map(eventObject) };
});

export const getEvent = readAction('get_event', async ({ db, merchant }, input) => {
  const [row] = await db.query<EventRow>(`SELECT ${EVENT_COLUMNS} FROM events WHERE id = $1 AND merchant_id = $2`, [input.id, merchant.id]);
  if (!row) throw new ApiError('not_found', `No such event: ${input.id}`, 'id');
  return eventObject(row);
});
