export interface ModelSettings {
	runs: number;
	seed: number;
	maxSteps: number;
	discover: boolean;
	fireOnRerun: boolean;
}

export function modelSettings(): ModelSettings;
export function print(text: string): void;
