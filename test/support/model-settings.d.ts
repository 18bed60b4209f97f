export interface ModelSettings {
	runs: number;
	seed: number;
	maxSteps: number;
	discover: boolean;
	fireOnRerun: boolean;
	exclude: string[];
}

export function modelSettings(): ModelSettings;
export function print(text: string): void;
