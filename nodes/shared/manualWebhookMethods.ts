import type { IHookFunctions } from 'n8n-workflow';

/**
 * The lifecycle methods of a webhook the user registers by hand with the provider (it has no API for
 * it). `checkExists` answers true, so n8n never calls `create`; both run `onRegistration`, which
 * logs what to register where and may throw: n8n then refuses to publish (or to listen for a test
 * event) with that error, instead of failing every delivery later.
 * `delete` registers nothing either; `logRemoval` may say what to do by hand.
 */
export function manualWebhookMethods(
	onRegistration: (context: IHookFunctions) => void | Promise<void>,
	logRemoval: (context: IHookFunctions) => void = () => {},
) {
	return {
		default: {
			async checkExists(this: IHookFunctions): Promise<boolean> {
				await onRegistration(this);
				return true;
			},
			async create(this: IHookFunctions): Promise<boolean> {
				await onRegistration(this);
				return true;
			},
			async delete(this: IHookFunctions): Promise<boolean> {
				logRemoval(this);
				return true;
			},
		},
	};
}
