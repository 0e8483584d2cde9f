// Issue 45's money fuzzer in the suite, first half: 100 seeded sequences (fuzz/suite.ts says what one does). With
// money-fuzzer-b.test.ts, `npm test` runs 200; `npm run bench -- fuzz` runs many more, with other seeds.
import { moneyFuzzerSuite } from './fuzz/suite';

moneyFuzzerSuite(4545, 100);
