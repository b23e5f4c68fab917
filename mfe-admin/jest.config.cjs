module.exports = require('@radar/shared-ui/jest-preset')(__dirname);
