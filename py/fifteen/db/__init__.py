"""The databases: their container format (:mod:`fifteen.db.container`) and the registry of loaded ones (:mod:`fifteen.db.registry`)."""
