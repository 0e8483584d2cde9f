import fc from 'fast-check';
import { sequence } from '../test/integration/security/fuzz/actions';
const [seed, index] = [Number(process.argv[2]), Number(process.argv[3])];
const samples = fc.sample(sequence(14), { seed, numRuns: index + 1 });
console.log(JSON.stringify(samples[index], null, 0).replace(/\},\{/g, '},\n{'));
