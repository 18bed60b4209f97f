'use strict';
// The e2e library: run the package inside a real n8n (see each module for one concept).
module.exports = {
	...require('./paths'),
	...require('./install'),
	...require('./community-package'),
	...require('./env'),
	...require('./cli'),
	...require('./server'),
	...require('./rest'),
	...require('./credentials'),
	...require('./ports'),
	...require('./process'),
	...require('./instance'),
	...require('./browser'),
	...require('./sandbox'),
	...require('./workflows'),
	...require('./run-data'),
	...require('./demo'),
};
