// Writes schema/trajectory-v1.schema.json from the trajectory format's one declaration
// (src/trajectory/format/). A test fails when the committed file differs from what this writes.
import { writeFileSync } from 'node:fs';
import { trajectoryJsonSchemaText } from '../src/trajectory/format/trajectoryJsonSchema.js';

const file = 'schema/trajectory-v1.schema.json';
writeFileSync(file, trajectoryJsonSchemaText());
console.log(`wrote ${file}`);
