import type { INodeProperties } from 'n8n-workflow';

export const apiBaseUrlField: INodeProperties = {
	displayName: 'API Base URL',
	name: 'baseUrl',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'https://api.example.com/v1',
	description: 'Base address of the Partner Payroll API, as given by the provider',
};

export const authServerUrlField: INodeProperties = {
	displayName: 'Authorization Server URL',
	name: 'authServerUrl',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'https://auth.example.com',
};
