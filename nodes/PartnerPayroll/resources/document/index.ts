import { resource } from '../resource';
import { download } from './download';
import { getAutoEnrolmentDocuments, getIncomeTaxDocuments } from './listDocuments';

export const document = resource(
	'document',
	'Document',
	[download, getAutoEnrolmentDocuments, getIncomeTaxDocuments],
	'getIncomeTaxDocuments',
);
