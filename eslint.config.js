export { default } from '@mcpc/eslint-config';
