import type { IHookFunctions } from 'n8n-workflow';

/**
 * The lifecycle methods of a webhook the user registers by hand with the provider (it has no API for
 * it). `checkExists` answers true, so n8n never calls `create`; both log what to register where.
 * `delete` registers nothing either; `logRemoval` may say what to do by hand.
 */
export function manualWebhookMethods(
	logRegistration: (context: IHookFunctions) => void,
	logRemoval: (context: IHookFunctions) => void = () => {},
) {
	return {
		default: {
			async checkExists(this: IHookFunctions): Promise<boolean> {
				logRegistration(this);
				return true;
			},
			async create(this: IHookFunctions): Promise<boolean> {
				logRegistration(this);
				return true;
			},
			async delete(this: IHookFunctions): Promise<boolean> {
				logRemoval(this);
				return true;
			},
		},
	};
}
