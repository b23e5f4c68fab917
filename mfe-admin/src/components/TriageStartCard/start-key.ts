import { routes } from '@radar/contracts';
import { urlOf } from '@radar/shared-ui';

/** The SWR key of GET /api/triage/start (the lines and the settings), revalidated after a move or a save. */
export const START_KEY = urlOf(routes.triage.start, {});
