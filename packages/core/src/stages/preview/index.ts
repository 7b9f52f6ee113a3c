import { run } from './main.js';

run();
