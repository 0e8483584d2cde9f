// Issue 45's money fuzzer in the suite, second half: 100 more sequences from another seed (fuzz/suite.ts says what one
// does), in a file of its own so that the suite's two workers run the halves side by side.
import { moneyFuzzerSuite } from './fuzz/suite';

moneyFuzzerSuite(4546, 100);
