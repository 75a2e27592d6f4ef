import { defineConfig } from 'vitest/config';
export default defineConfig({ test: { root: '/work/main', include: ['.scratch/*.test.ts'], testTimeout: 120000 } });
