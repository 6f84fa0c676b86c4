/** Moved: the verdict file's schema lives with the other shapes (lib/schema/verdict.ts). */
export * from '../schema/verdict';
