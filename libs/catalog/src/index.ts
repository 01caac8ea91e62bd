export const hello = 'hi';
