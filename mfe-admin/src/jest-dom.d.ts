// jest-dom matchers on @jest/globals' expect (the runtime side is in shared-ui's jest setup).
import '@testing-library/jest-dom/jest-globals';
