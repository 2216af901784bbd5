module mafiaclub

go 1.26.0
