import { describeError } from '../../api/error-mapper';
import { translate } from '../../i18n/i18n-instance';
import { showToast } from './toaster';

/** The warning toast of spec section 8 for a failed call. */
export function notifyError(error: unknown): void {
  showToast(describeError(error, translate), 'warning');
}
